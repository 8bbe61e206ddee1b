/* SPDX-License-Identifier: MIT */
/*
 * test_panes.c - the pane table (tui/app/panes.h): every place of the
 * layout and every tab of the Carry place resolves to a complete pane,
 * F12 goes round the tabs, the focus keys go round the places, and a tab
 * or a pane without hints of its own shows the ones it falls back on.
 * The screens themselves are the tmux tests' (tests/tui).
 */
#include "testlib.h"

#include <string.h>

#include "app/app.h"
#include "app/panes.h"

static struct app app; /* large: not on the stack */

static void reset(void)
{
	memset(&app, 0, sizeof app);
	app.nav.focus = PANE_EDITOR;
}

/* Every pane and tab: the members routing cannot do without. */
static void test_every_place_and_tab_is_a_whole_pane(void **state)
{
	const char *titles[PANE_COUNT + 8];
	size_t n = 0;

	(void)state;
	reset();
	for (int p = 0; p < PANE_COUNT; p++) {
		const struct pane_class *pc = app_pane(&app, p);
		assert_non_null(pc);
		assert_non_null(pc->title);
		assert_non_null(pc->draw);
		assert_true(pc->focusable);
		if (p != PANE_CARRY)
			titles[n++] = pc->title;
	}
	/* the tabs, shown one after the other */
	const struct pane_class *first = app_pane(&app, PANE_CARRY);
	do {
		const struct pane_class *tab = app_pane(&app, PANE_CARRY);
		assert_non_null(tab->title);
		assert_non_null(tab->draw);
		assert_non_null(tab->key);
		assert_non_null(tab->paste); /* never the Editor's by accident */
		assert_true(tab->focusable);   /* F6 stops on the place */
		assert_true(n < PANE_COUNT + 8);
		titles[n++] = tab->title;
		app_side_next(&app);
	} while (app_pane(&app, PANE_CARRY) != first);
	/* a title names one pane, so "... zoomed" says which */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			assert_string_not_equal(titles[i], titles[j]);
	assert_int_equal(n, PANE_COUNT - 1 + 3);
}

static void test_f12_shows_the_next_tab_and_focuses_it(void **state)
{
	(void)state;
	reset();
	assert_string_equal(app_pane(&app, PANE_CARRY)->title, "Carry");
	assert_string_equal(app_side_next_title(&app), "Stdin");
	app_side_next(&app);
	assert_int_equal(app.nav.focus, PANE_CARRY);
	assert_ptr_equal(app_focused(&app), &app_stdin_tab);
	app_side_next(&app);
	assert_ptr_equal(app_focused(&app), &app_vars_tab);
	assert_string_equal(app_side_next_title(&app), "Carry");
	app_side_next(&app);
	assert_ptr_equal(app_focused(&app), &app_carry_tab);
}

static void test_the_focus_goes_round_the_places(void **state)
{
	(void)state;
	reset();
	for (int i = 1; i <= PANE_COUNT; i++) {
		app_focus_step(&app, 1);
		assert_int_equal(app.nav.focus, i % PANE_COUNT);
	}
	app_focus_step(&app, -1);
	assert_int_equal(app.nav.focus, PANE_CARRY);
	app_focus_step(&app, -1);
	assert_int_equal(app.nav.focus, PANE_VIOLATIONS);
}

/* The status line's hints: the focused pane's, a tab's place's, or the
 * Editor's (Violations without a record has nothing of its own). */
static void test_hints_fall_back_to_the_place_then_the_editor(void **state)
{
	const char *const *editor_hints;

	(void)state;
	reset();
	editor_hints = app_pane_hints(&app);
	assert_string_equal(editor_hints[0], "F5 run");
	app.nav.focus = PANE_VIOLATIONS;
	assert_ptr_equal(app_pane_hints(&app), editor_hints);
	app.pane.viol.n = 1;
	assert_string_equal(app_pane_hints(&app)[0], "Enter line");
	app.pane.viol.n = 0;
	app.nav.focus = PANE_OUTPUT;
	assert_string_equal(app_pane_hints(&app)[0], "Enter traceback");
	app.nav.focus = PANE_CARRY;
	/* each tab its own: Carry's (^S saves the carry buffer), then Stdin's
	 * and Variables', which have no ^S */
	assert_ptr_equal(app_pane_hints(&app), app_side_hints(&app));
	for (int t = 1; t < 3; t++) {
		app_side_next(&app);
		for (size_t i = 0; app_pane_hints(&app)[i]; i++)
			assert_string_not_equal(app_pane_hints(&app)[i], "^S save");
		assert_ptr_not_equal(app_pane_hints(&app), app_side_hints(&app));
	}
}

/* "Ln, Col" follows the focused text: the carry buffer's on Carry, the
 * stdin text's on Stdin, the Editor's on a list (Output, Variables). */
static void test_the_status_position_follows_the_focused_text(void **state)
{
	struct editor *ed = (struct editor *)&app.theme; /* any two addresses */
	struct editor *carry = (struct editor *)&app.cfg;
	struct editor *stdin_ed = (struct editor *)&app.quit;

	(void)state;
	reset();
	app.pane.ed = ed;
	app.pane.carry.ed = carry;
	assert_ptr_equal(app_pane_text(&app), ed);
	app.nav.focus = PANE_OUTPUT;
	assert_ptr_equal(app_pane_text(&app), ed);
	app.pane.stdin_buf.ed = stdin_ed;
	app.nav.focus = PANE_CARRY;
	assert_ptr_equal(app_pane_text(&app), carry);
	app_side_next(&app);
	assert_ptr_equal(app_pane_text(&app), stdin_ed);
	app_side_next(&app);
	assert_ptr_equal(app_pane_text(&app), ed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_place_and_tab_is_a_whole_pane),
		cmocka_unit_test(test_f12_shows_the_next_tab_and_focuses_it),
		cmocka_unit_test(test_the_focus_goes_round_the_places),
		cmocka_unit_test(test_hints_fall_back_to_the_place_then_the_editor),
		cmocka_unit_test(test_the_status_position_follows_the_focused_text),
	};
	return cmocka_run_group_tests_name("panes", tests, NULL, NULL);
}
