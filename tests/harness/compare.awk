# compare.awk - compare two prism-harness reports value by value.
#
#   awk -v show=N -f tests/harness/compare.awk MULTIFACTOR PRISM
#
# Prints "SUMMARY ..." (rows and values compared per kind), then up to
# 'show' differences as "KEY FIELD: multifactor=A prism=B", the count of
# differences per field; exit status 1 on any difference or when there
# are no job or factors rows.  Rows are matched on their key (kind and
# id, and for job and factors rows the partition and, on 24.11, the
# QOS); job priorities are equal exactly, other numbers when
# |a-b| <= 1e-6 * max(|a|,|b|) or |a-b| <= 1e-12; noval/inf/nan only
# equal themselves; assoc rows compare usage_raw usage_norm usage_efctv
# fs_factor level_fs shares_norm run_secs.  Used by test-compare.sh and
# test-churn.sh (there on reports whose row ids carry the pass number).
function isnum(s) {
	return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/
}
function same(f, a, b,   x, y, d, m) {
	if (a "" == b "")
		return 1
	if (!isnum(a) || !isnum(b))
		return 0
	x = a + 0; y = b + 0
	d = x - y; if (d < 0) d = -d
	if (f == "priority")
		return d <= 0
	m = (x < 0 ? -x : x); if (y < 0 && -y > m) m = -y; if (y > m) m = y
	return (d <= 1e-6 * m) || (d <= 1e-12)
}
# split a report line into key and fields; returns the kind
function parse(line, F,   n, t, i, k, v, kind, start, nt, tt, j, p) {
	for (k in F) delete F[k]
	n = split(line, t, " ")
	kind = t[1]
	if ((kind == "job" || kind == "factors") && t[4] ~ /^qos=/) {
		F[""] = kind " " t[2] " " t[3] " " t[4]; start = 5
	} else if (kind == "job" || kind == "factors") {
		F[""] = kind " " t[2] " " t[3]; start = 4
	} else {
		F[""] = kind " " t[2]; start = 3
	}
	for (i = start; i <= n; i++) {
		p = index(t[i], "=")
		if (!p) { F["?" i] = t[i]; continue }
		k = substr(t[i], 1, p - 1); v = substr(t[i], p + 1)
		if (kind == "assoc" && !(k in assoc_fields))
			continue
		if (k == "tres" || k == "tres_w") {
			if (v == "-") continue
			nt = split(v, tt, ",")
			for (j = 1; j <= nt; j++) {
				p = index(tt[j], ":")
				F[k ":" substr(tt[j], 1, p - 1)] = substr(tt[j], p + 1)
			}
			continue
		}
		F[k] = v
	}
	return kind
}
function diff(kind, key, f, a, b) {
	ndiff++
	bad[kind "." f]++
	if (ndiff <= show)
		printf "    %s %s: multifactor=%s prism=%s\n", key, f, a, b
}
BEGIN {
	split("usage_raw usage_norm usage_efctv fs_factor level_fs shares_norm run_secs", t, " ")
	for (i in t) assoc_fields[t[i]] = 1
}
/^plugin / { next }
FILENAME == ARGV[1] { parse($0, A); mf[A[""]] = $0; order[++nmf] = A[""]; next }
{
	kind = parse($0, B)
	key = B[""]
	if (!(key in mf)) { diff("rows", key, "row", "-", "present"); next }
	parse(mf[key], A)
	delete mf[key]
	rows[kind]++
	for (f in A) if (f != "" && !(f in B)) B[f] = (f ~ /^tres:/) ? "0" : "-"
	for (f in B) if (f != "" && !(f in A)) A[f] = (f ~ /^tres:/) ? "0" : "-"
	for (f in A) {
		if (f == "") continue
		vals[kind]++
		if (!same(f, A[f], B[f])) diff(kind, key, f, A[f], B[f])
	}
}
END {
	for (i = 1; i <= nmf; i++)
		if (order[i] in mf) diff("rows", order[i], "row", "present", "-")
	s = ""
	split("assoc job factors qos part", kinds, " ")
	for (i = 1; i <= 5; i++)
		s = s sprintf("%s%d %s rows (%d values)", i > 1 ? ", " : "",
			      rows[kinds[i]], kinds[i], vals[kinds[i]])
	if (rows["qos-used"])
		s = s sprintf(", %d qos-used rows (%d values)",
			      rows["qos-used"], vals["qos-used"])
	print "SUMMARY " s
	if (ndiff) {
		s = ""
		for (f in bad) s = s " " f "=" bad[f]
		print "    differing (field=count):" s
		if (ndiff > show) printf "    ... %d differences in all\n", ndiff
	}
	exit(ndiff > 0 || rows["job"] == 0 || rows["factors"] == 0)
}
