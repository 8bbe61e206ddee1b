/* SPDX-License-Identifier: MIT */
/*
 * app_message.c - the status line's message and the playground's clock:
 * the two things every file of tui/app uses, kept apart so that using
 * them ties no file to the main loop. A message shows for six seconds
 * (app_status.c draws it); an error is drawn in the error colour.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "app/app.h"
#include "banned.h"

#define MSG_SECONDS 6

double app_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void app_message(struct app *a, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->ui.msg, sizeof a->ui.msg, fmt, ap);
	va_end(ap);
	a->ui.msg_error = error;
	a->ui.msg_until = app_now() + MSG_SECONDS;
	a->ui.dirty = true;
}
