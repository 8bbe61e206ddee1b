/* SPDX-License-Identifier: MIT */
/*
 * help.c - the help screen's text and its scrolling overlay.
 */
#include <string.h>

#include "screen/help.h"
#include "screen/layout.h"
#include "screen/theme.h"
#include "screen/wrap.h"
#include "buf.h"
#include "banned.h"

static const char *const help_lines[] = {
	"KEYS (every F-key has a Ctrl twin, for laptops and terminals that eat F-keys)",
	"  F5, Ctrl-R       run the Editor's program in the sandbox",
	"  Esc, Ctrl-C      cancel the running program (Ctrl-C copies when not running)",
	"  F2, Ctrl-B       carry the last run's carry() results into the Carry pane",
	"  F3, Ctrl-D       demo programs: each constraint and its workaround;",
	"                   l there lists the lessons (in a lesson: the lesson list)",
	"                   h there lists an AI assistant's runs (sandpit mcp)",
	"  F10, Ctrl-D h    in a lesson: the next hint (after the last: the solution)",
	"  Shift-F10, ^D s  in a lesson: load the reference solution (asks first;",
	"                   Ctrl-Z brings your program back)",
	"  Ctrl-D z         in a lesson: the goal, the hints so far, the verdict in full",
	"  F4, Ctrl-P       limits: CPU, wall, memory, processes, output, disk, presets",
	"                   (Enter: the next runs use them; Ctrl-S: also save them)",
	"  F1, Ctrl-G       this help",
	"  F7, Ctrl-T       attach host files: every run gets a copy until detached;",
	"                   the Resources pane's title lists them",
	"  F8, Ctrl-N       the last run's files (sandpit's copy): view, s saves a copy",
	"  F6, Ctrl-W       focus the next pane (Shift-F6: the previous one)",
	"  Alt-arrows       focus the next / previous pane; a click focuses one too",
	"  Alt-1 ... Alt-5  show one pane on the whole screen: Editor, Output,",
	"                   Resources, Violations, Carry (again: every pane)",
	"  Tab, Shift-Tab   indent / dedent in the Editor (the line or the selection);",
	"                   in the other panes Tab moves the focus and Esc goes back",
	"                   to the Editor",
	"  F9, Ctrl-]       mouse capture on/off (off: the terminal selects text)",
	"  Ctrl-S           save (in the Carry pane: save the buffer to a JSON file)",
	"  Ctrl-O           open a file (in the Carry pane: load a JSON file)",
	"  Ctrl-Z, Ctrl-Y   undo, redo",
	"  Ctrl-A, Ctrl-E   start / end of the line (as Home / End)",
	"  Ctrl-K           cut the line (several in a row paste back together)",
	"  Ctrl-/           comment the line or the selection out / back in",
	"  Ctrl-F           find: Enter next, Ctrl-P previous, Tab ignore case,",
	"                   Ctrl-F again replace (y, n, a: all)",
	"  Ctrl-L           go to a line",
	"  Ctrl-X/C/V       cut, copy, paste (Shift+arrows select); copies reach the",
	"                   system clipboard where the terminal allows (OSC 52)",
	"  Ctrl-Q           quit (asks when there are unsaved changes)",
	"                   F5, Ctrl-R and Ctrl-Q also work over this help, F8's",
	"                   files, the runs list and the menus: they close it first",
	"  F12, Ctrl-\\      the Carry pane's next tab: Carry, Stdin, Variables",
	"                   (in Variables, Enter or c carries the selected global)",
	"  / n N s c        in Output: find, next older/newer match, save, clear",
	"  Ctrl-Delete      in the Carry pane: clear it (asks; Ctrl-Z brings it back)",
	"  In prompts: Left/Right, Home/End, Backspace/Delete, Ctrl-U edit; a",
	"  suggested name is selected, so typing replaces it; Tab completes a path;",
	"  Up/Down bring back earlier entries.",
	"  Arrows, PgUp/PgDn, Home/End, mouse wheel: move or scroll the focused",
	"  pane; the wheel scrolls the pane under the pointer.",
	"  F11, Ctrl-U      zoom the focused pane to the whole screen, and back (a zoomed Violations pane is a teacher's view: the explanation first)",
	"  In Violations, Up/Down select a record, PgUp/PgDn and the wheel scroll its explanation, Enter (or a second click) goes to its line in the Editor. In Output, a click on a traceback line goes to that line, and so does Enter while one is in view.",
	"  The Editor's gutter marks the lines that had violations: ◆ N network, ■ F filesystem, ✖ S system call, ▲ P processes, ● M memory (the letters in monochrome).",
	"  A Python error that the sandbox's rules cause (no such module, a file from an earlier run, input()) gets a hint under its traceback, in Output.",
	"  In Output, Enter with no traceback in view (or a click on one) shows a picture large; Esc closes.",
	"  Keys that mean nothing here (an Alt-chord, an unknown key sequence) are",
	"  ignored, and the status line says so; they never type text.",
	"",
	"THE FIVE CONSTRAINTS OF A RUN",
	"  1 No network: no HTTP, no DNS, no sockets to anywhere.",
	"    Bring the data to the program: attach a file (F7), paste it in, or put",
	"    it in the Carry pane.",
	"  2 Limited filesystem: only a small temporary work dir is writable; host",
	"    and system files are not there. Attach data files with F7. The work dir",
	"    is deleted after each run; sandpit keeps a copy of its files (F8).",
	"  3 Stateless runs: every run starts from nothing. Keep results with",
	"    carry(name=value) and F2; the Carry pane is sent with the next run.",
	"  4 Time limits: CPU time and wall-clock time are capped (Resources pane).",
	"    Work on a representative sample; scale up elsewhere.",
	"  5 Memory limit: large allocations fail with MemoryError.",
	"  Processes, output and disk use are bounded too.",
	"",
	"LESSONS (sandpit learn)",
	"  A strip above the panes shows the lesson's goal, the progress, the hint",
	"  shown and, after each run, the verdict: passed, or not yet and what is",
	"  missing. Progress is kept; sandpit learn --reset forgets it.",
	"",
	"STEP MODE (for a class: sandpit --step, or p in the F3 menus)",
	"  A run's output and violations wait; Space shows up to the next violation",
	"  and stops there (selected, its line marked); Esc shows the rest.",
	"",
	"PANES",
	"  Editor      your program        Output      what runs printed (! = stderr)",
	"  Resources   use against limits, and a graph of each over the run (X: the",
	"              moment a limit stopped it)   Violations  attempts to cross a limit",
	"  Carry       JSON sent as globals to the next run; Run refuses it if invalid",
	"              its Stdin tab: the next run's input; Variables: what the",
	"              last run left, which dies with it unless carried",
	"",
	"Esc, q or F1 closes this help.",
};

#define N_LINES ((int)SP_ARRAY_SIZE(help_lines))

void help_open(struct help_view *h)
{
	h->active = true;
	h->top = 0;
}

/* Rows of the help text, wrapped at words to w cells (up to max). */
#define MAX_ROWS 400
static int layout_rows(int w, struct wrap_row *rows, bool *head)
{
	int n = 0;

	for (int i = 0; i < N_LINES && n < MAX_ROWS; i++) {
		int k = wrap_hanging(help_lines[i], w, rows + n, MAX_ROWS - n);
		for (int j = 0; j < k; j++)
			head[n + j] = help_lines[i][0] && help_lines[i][0] != ' ';
		n += k;
	}
	return n;
}

void help_key(struct help_view *h, int key, int rows)
{
	int page = rows > 6 ? rows - 6 : 1;
	int total = h->rows > 0 ? h->rows : N_LINES;

	switch (key) {
	case KEY_UP: h->top--; break;
	case KEY_DOWN: h->top++; break;
	case KEY_PPAGE: h->top -= page; break;
	case KEY_NPAGE: case ' ': h->top += page; break;
	case KEY_HOME: h->top = 0; break;
	case KEY_END: h->top = total; break;
	case 27: case 'q': case KEY_F(1): case 7: case '\n': case '\r':
		h->active = false;
		break;
	default: break;
	}
	if (h->top > total - 1) h->top = total - 1;
	if (h->top < 0) h->top = 0;
}

void help_draw(struct help_view *h, WINDOW *win, int rows, int cols,
	       const struct theme *th)
{
	int w = cols - 4 < 84 ? cols - 4 : 84;
	int hh = rows - 2;
	struct rect r = { 1, (cols - w) / 2, hh, w };
	struct rect in = rect_inner(r);
	attr_t a = theme_attr(th, TR_DIALOG);
	static struct wrap_row wr[MAX_ROWS];
	static bool head[MAX_ROWS];
	int n;

	if (w < 10 || hh < 3)
		return;
	n = h->rows = layout_rows(in.w - 2, wr, head);
	if (h->top > n - in.h && n > in.h)
		h->top = n - in.h;
	layout_clear(win, r, a);
	layout_frame(win, r, "Help", h->top + in.h < n ? "PgDn more · Esc closes"
		     : "Esc closes", true, th);
	for (int y = 0; y < in.h && h->top + y < n; y++) {
		const struct wrap_row *row = &wr[h->top + y];
		text_draw(win, in.y + y, in.x + 1 + row->indent, in.w - 2 - row->indent,
			  row->s, row->len, head[h->top + y] ? a | A_BOLD : a);
	}
}
