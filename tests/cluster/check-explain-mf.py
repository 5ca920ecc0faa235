#!/usr/bin/env python3
# tests/cluster/check-explain-mf.py SPRIO EXPLAIN_JSON SQUEUE
#
# Checks `prism explain --json` (policy=multifactor) against what Slurm's
# own clients show, captured in files by the cluster test:
#   SPRIO         `sprio -h -o '%i %r %u %Y %S %A %B %F %J %P %Q %N %T'`
#                 (one row per job and partition; -l's columns differ
#                 between Slurm releases)
#   EXPLAIN_JSON  `prism explain --json`
#   SQUEUE        `squeue -h -t PD -o '%i %Q %u %a'`
# For every sprio row: a block for the same job and partition (an
# admin-set priority: the same priority, no terms) whose terms,
# printed as sprio prints them (%.0f; NICE the other way round; TRES as
# name=%.0f of the non-zero ones), equal sprio's columns; whose sum,
# truncated as sprio truncates it, is sprio's PRIORITY; that adds up to
# the controller's priority (squeue %Q) for a job in one partition; and
# whose fair-share path runs from root through the job's account to the
# job's user, with a Fair Tree rank within 1..users.
# Prints one line per mismatch, then "N rows checked"; exit 1 on any
# mismatch.

import json
import math
import sys


def fmt0(v):
    return "%.0f" % v


def sprio_rows(path):
    rows = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 12 or not p[0].isdigit():
                continue
            rows.append({
                "job": int(p[0]), "part": p[1], "prio": p[3],
                "SITE": p[4], "AGE": p[5], "ASSOC": p[6],
                "FAIRSHARE": p[7], "JOBSIZE": p[8], "PARTITION": p[9],
                "QOS": p[10], "NICE": p[11],
                "TRES": p[12] if len(p) > 12 else "",
            })
    return rows


def squeue_jobs(path):
    jobs = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 4 and p[0].isdigit():
                jobs[int(p[0])] = {"prio": p[1], "user": p[2],
                                   "account": p[3]}
    return jobs


COLUMNS = {"age": "AGE", "assoc": "ASSOC", "fairshare": "FAIRSHARE",
           "jobsize": "JOBSIZE", "partition": "PARTITION", "qos": "QOS"}


def check_terms(row, block, bad):
    terms = {t["term"]: t for t in block["terms"]}
    for term, col in COLUMNS.items():
        got = fmt0(terms[term]["value"]) if term in terms else "missing"
        if got != row[col]:
            bad.append("%d %s: %s %s, sprio %s"
                       % (row["job"], row["part"], term, got, row[col]))
    site = fmt0(terms["site"]["value"])
    nice = fmt0(-terms["nice"]["value"])
    if site != row["SITE"] or nice != row["NICE"]:
        bad.append("%d %s: site/nice %s/%s, sprio %s/%s"
                   % (row["job"], row["part"], site, nice, row["SITE"],
                      row["NICE"]))
    tres = ",".join("%s=%s" % (t["term"][5:], fmt0(t["value"]))
                    for t in block["terms"]
                    if t["term"].startswith("tres ") and t["value"] != 0)
    if tres != row["TRES"]:
        bad.append("%d %s: TRES %s, sprio %s"
                   % (row["job"], row["part"], tres, row["TRES"]))


def check_sum(row, block, job, bad):
    total = sum(t["value"] for t in block["terms"])
    if abs(total - block["sum"]) > 1e-6 * max(1.0, abs(total)):
        bad.append("%d: terms add up to %r, sum says %r"
                   % (row["job"], total, block["sum"]))
    if str(int(math.trunc(block["sum"]))) != row["prio"]:
        bad.append("%d %s: sum %r, sprio PRIORITY %s"
                   % (row["job"], row["part"], block["sum"], row["prio"]))
    if block["rows"] == 1 and (not block["adds_up"] or
                               str(block["priority"]) != job["prio"]):
        bad.append("%d: priority %s (adds_up %s), squeue %s"
                   % (row["job"], block["priority"], block["adds_up"],
                      job["prio"]))


def check_path(row, block, job, bad):
    fs = block["fairshare"]
    path = fs.get("path") or []
    if len(path) < 3 or path[0]["account"] != "root" or \
       path[0]["user"] is not None or \
       path[-1]["user"] != job["user"] or \
       path[-1]["account"] != job["account"] or \
       path[-2]["user"] is not None or \
       path[-2]["account"] != job["account"]:
        bad.append("%d: fair-share path %s does not run root .. %s .. %s"
                   % (row["job"],
                      [(a["account"], a["user"]) for a in path],
                      job["account"], job["user"]))
    rank = fs.get("rank")
    if fs.get("algorithm") == "fair_tree" and \
       (not rank or not 1 <= rank["rank"] <= rank["users"]):
        bad.append("%d: Fair Tree rank %s (%s)"
                   % (row["job"], rank, fs.get("rank_error")))


def main():
    rows = sprio_rows(sys.argv[1])
    with open(sys.argv[2]) as f:
        explain = json.load(f)
    jobs = squeue_jobs(sys.argv[3])
    blocks = {(b["job_id"], b["partition"]): b for b in explain["jobs"]}
    bad = []
    for row in rows:
        block = blocks.get((row["job"], row["part"]))
        job = jobs.get(row["job"])
        if not block or not job:
            bad.append("%d %s: no block in explain (or not in squeue)"
                       % (row["job"], row["part"]))
            continue
        if block["admin_priority"] is not None:
            # an admin-set priority: no terms, sprio shows the priority
            if str(int(block["admin_priority"])) != row["prio"]:
                bad.append("%d: admin priority %r, sprio %s"
                           % (row["job"], block["admin_priority"],
                              row["prio"]))
        else:
            check_terms(row, block, bad)
            check_sum(row, block, job, bad)
        check_path(row, block, job, bad)
    if len(blocks) != len(rows):
        bad.append("explain has %d blocks, sprio %d rows"
                   % (len(blocks), len(rows)))
    for b in bad:
        print(b)
    print("%d rows checked" % len(rows))
    return 1 if bad or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
