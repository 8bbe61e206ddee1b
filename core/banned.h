/* SPDX-License-Identifier: MIT */
/*
 * banned.h - libc calls this project does not use, made compile errors.
 * Each has a bounded or clearer replacement: snprintf, memcpy with an
 * explicit length, strtok_r, strtol (atoi cannot say it failed, and
 * overflows into undefined behaviour), mkstemp or mkdtemp (mktemp's name
 * can be taken before it is used), the _r time functions or strftime
 * (the plain ones return a static buffer any other call overwrites),
 * or our own helpers. git's banned.h bans the same.
 */
#ifndef SP_BANNED_H
#define SP_BANNED_H

#define SP_BANNED(func) sorry_##func##_is_banned_use_a_bounded_call

#undef strcpy
#define strcpy(x, y) SP_BANNED(strcpy)
#undef strcat
#define strcat(x, y) SP_BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) SP_BANNED(strncpy)
#undef sprintf
#define sprintf(...) SP_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) SP_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) SP_BANNED(strtok)
#undef gets
#define gets(x) SP_BANNED(gets)
#undef strncat
#define strncat(x, y, n) SP_BANNED(strncat)
#undef atoi
#define atoi(x) SP_BANNED(atoi)
#undef mktemp
#define mktemp(x) SP_BANNED(mktemp)
#undef gmtime
#define gmtime(t) SP_BANNED(gmtime)
#undef localtime
#define localtime(t) SP_BANNED(localtime)
#undef ctime
#define ctime(t) SP_BANNED(ctime)
#undef asctime
#define asctime(t) SP_BANNED(asctime)

#endif
