/* SPDX-License-Identifier: MIT */
/*
 * app_lesson_again.c - a lesson's [again] runs in the playground: once
 * the learner's run passes the main check, the same program runs again
 * on inputs the learner has not seen (another carry-in, another file of
 * data, other stdin), so a printed answer cannot pass. Those runs take
 * seconds (a time lesson's are near its CPU limit), so they go on a
 * thread of their own, one job at a time, blocking (lesson_again_run);
 * the keyboard stays live and the verdict comes back through a pipe the
 * loop polls, as the prepared sandbox does (app_prewarm.c). A job is
 * judged against the lesson it was started for; if the learner has
 * opened another lesson since, its verdict is dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "pane/lesson_view.h"
#include "banned.h"

struct again_job {
	pthread_t thread;
	int fds[2];             /* the thread writes one byte when done */
	const struct lesson *l; /* lives as long as the lesson set */
	long lesson;            /* the index it was started for */
	char *program;
	struct sp_limits base;
	char python[sizeof ((struct pg_config *)0)->python];
	bool passed;
	int rc;
	char verdict[700];
	struct sp_error err;
};

static void *again_main(void *arg)
{
	struct again_job *j = arg;

	j->passed = true;
	for (size_t k = 0; k < j->l->n_again && j->passed; k++) {
		j->rc = lesson_again_run(j->l, k, j->program, &j->base,
					 j->python[0] ? j->python : NULL, &j->passed,
					 j->verdict, sizeof j->verdict, &j->err);
		if (j->rc < 0) {
			j->passed = false;
			break;
		}
	}
	char b = 1;
	while (write(j->fds[1], &b, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

static void job_free(struct again_job *j)
{
	pthread_join(j->thread, NULL);
	close(j->fds[0]);
	close(j->fds[1]);
	free(j->program);
	free(j);
}

int app_lesson_again_fd(const struct app *a)
{
	return a->lesson.view && a->lesson.view->again ? a->lesson.view->again->fds[0] : -1;
}

bool app_lesson_again_busy(const struct app *a)
{
	return a->lesson.view && a->lesson.view->again;
}

bool app_lesson_again_start(struct app *a, const char *program)
{
	struct lesson_view *v = a->lesson.view;
	struct again_job *j;

	app_lesson_again_stop(a);
	j = calloc(1, sizeof *j);
	if (!j || !(j->program = strdup(program)))
		goto fail;
	if (pipe2(j->fds, O_CLOEXEC) < 0) {
		free(j->program);
		goto fail;
	}
	j->l = &v->set.v[v->cur];
	j->lesson = v->cur;
	j->base = a->cfg.limits;
	snprintf(j->python, sizeof j->python, "%s", a->cfg.python);
	if (pthread_create(&j->thread, NULL, again_main, j) != 0) {
		close(j->fds[0]);
		close(j->fds[1]);
		free(j->program);
		goto fail;
	}
	v->again = j;
	return true;
fail:
	free(j);
	app_message(a, true, "the lesson's other runs could not start: out of memory");
	return false;
}

void app_lesson_again_stop(struct app *a)
{
	if (!app_lesson_again_busy(a))
		return;
	job_free(a->lesson.view->again); /* waits for the runs under way */
	a->lesson.view->again = NULL;
}

void app_lesson_again_forget(struct app *a)
{
	/* its runs go on to their end; their verdict is dropped when it comes */
	if (app_lesson_again_busy(a))
		a->lesson.view->again->lesson = -2;
}

bool app_lesson_again_drain(struct app *a, bool *pass, char *verdict, size_t len)
{
	struct lesson_view *v = a->lesson.view;
	struct again_job *j = v ? v->again : NULL;
	bool wanted;
	char b;

	if (!j || read(j->fds[0], &b, 1) != 1)
		return false;
	v->again = NULL;
	pthread_join(j->thread, NULL);
	wanted = j->lesson == v->cur;
	if (wanted && j->rc < 0)
		snprintf(verdict, len, "not yet: the check's other runs did not "
			 "start: %s", j->err.msg);
	else if (wanted)
		snprintf(verdict, len, "%s", j->verdict);
	*pass = j->passed;
	close(j->fds[0]);
	close(j->fds[1]);
	free(j->program);
	free(j);
	a->ui.dirty = true;
	return wanted;
}
