/*****************************************************************************\
 *  cli_convert.h - prism convert (cli_convert.c).
 *
 *  SPDX-License-Identifier: GPL-2.0-or-later
\*****************************************************************************/

#ifndef PRISM_CLI_CONVERT_H
#define PRISM_CLI_CONVERT_H

extern int cli_convert(int argc, char **argv);

#endif /* PRISM_CLI_CONVERT_H */
