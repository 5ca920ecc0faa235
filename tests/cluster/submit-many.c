/*****************************************************************************\
 *  submit-many.c - submit COUNT small batch jobs through Slurm's API, the
 *  RPC sbatch uses, without a process per job: the load test builds a
 *  queue of tens of thousands of pending jobs with it in a minute.
 *
 *  Usage: submit-many COUNT PARTITION WORKDIR
 *  Prints "submitted N, failed M"; exits 1 if any submission failed.
 *  Built by tests/cluster/test-load.sh with: cc -o X submit-many.c -lslurm
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <slurm/slurm.h>

int main(int argc, char **argv)
{
	char *env[] = { "PATH=/usr/bin:/bin", NULL };
	job_desc_msg_t desc;
	long count, ok = 0, failed = 0;

	if (argc != 4 || (count = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: %s COUNT PARTITION WORKDIR\n", argv[0]);
		return 2;
	}
	slurm_init(NULL);
	slurm_init_job_desc_msg(&desc);
	desc.name = "load";
	desc.partition = argv[2];
	desc.work_dir = argv[3];
	desc.std_out = "/dev/null";
	desc.script = "#!/bin/sh\nsleep 1\n";
	desc.environment = env;
	desc.env_size = 1;
	desc.min_cpus = 1;
	desc.min_nodes = 1;
	desc.time_limit = 10;
	desc.user_id = getuid();
	desc.group_id = getgid();
	for (long i = 0; i < count; i++) {
		submit_response_msg_t *resp = NULL;

		if (slurm_submit_batch_job(&desc, &resp)) {
			if (!failed)
				slurm_perror("slurm_submit_batch_job");
			failed++;
			continue;
		}
		slurm_free_submit_response_response_msg(resp);
		ok++;
	}
	printf("submitted %ld, failed %ld\n", ok, failed);
	slurm_fini();
	return failed ? 1 : 0;
}
