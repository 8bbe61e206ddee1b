/* SPDX-License-Identifier: MIT */
/*
 * banned.h - libc calls this project does not use, made compile errors.
 * Each has a bounded or clearer replacement: snprintf, memcpy with an
 * explicit length, strtok_r, or our own helpers.
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

#endif
