/*****************************************************************************\
 *  cli_check_mf.h - prism check under policy=multifactor (cli_check_mf.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_CHECK_MF_H
#define PRISM_CLI_CHECK_MF_H

/*
 * prism check under policy=multifactor (cli_check_mf.c): read the
 * slurm.conf 'conf_path' with Slurm's parser, print a line per warning
 * with file and line, the settings in force and "OK". CLI_OK (warnings
 * too), or CLI_ERROR when the file cannot be read; a file Slurm's parser
 * refuses makes Slurm print its error and exit 1.
 */
extern int cli_check_multifactor(const char *conf_path);

#endif /* PRISM_CLI_CHECK_MF_H */
