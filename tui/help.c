/*
 * help.c - the help screen's text and its scrolling overlay.
 */
#include <string.h>

#include "help.h"
#include "layout.h"
#include "theme.h"
#include "banned.h"

static const char *const help_lines[] = {
	"KEYS (every F-key has a Ctrl twin, for laptops and terminals that eat F-keys)",
	"  F5, Ctrl-R       run the Editor's program in the sandbox",
	"  Esc, Ctrl-C      cancel the running program (Ctrl-C copies when not running)",
	"  F2, Ctrl-B       carry the last run's carry() results into the Carry pane",
	"  F3, Ctrl-D       demo programs: each constraint and its workaround",
	"  F4, Ctrl-P       limits: CPU, wall, memory, processes, output, disk, presets",
	"                   (Enter: the next runs use them; Ctrl-S: also save them)",
	"  F1, Ctrl-G       this help",
	"  F6, Ctrl-W       focus the next pane (Shift-F6: the previous one)",
	"  Alt-arrows       focus the next / previous pane; a click focuses one too",
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
	"  F12, Ctrl-\\      the Carry pane's next tab: Carry, Stdin, Variables",
	"                   (in Variables, Enter or c carries the selected global)",
	"  / n N s c        in Output: find, next older/newer match, save, clear",
	"  Ctrl-Delete      in the Carry pane: clear it (asks; Ctrl-Z brings it back)",
	"  In prompts: Left/Right, Home/End, Backspace/Delete, Ctrl-U edit; a",
	"  suggested name is selected, so typing replaces it; Tab completes a path;",
	"  Up/Down bring back earlier entries.",
	"  Arrows, PgUp/PgDn, Home/End, mouse wheel: move or scroll the focused",
	"  pane; the wheel scrolls the pane under the pointer.",
	"  In Violations, Up/Down select a record; its explanation shows below it.",
	"  Keys that mean nothing here (an Alt-chord, an unknown key sequence) are",
	"  ignored, and the status line says so; they never type text.",
	"",
	"THE FIVE CONSTRAINTS OF A RUN",
	"  1 No network: no HTTP, no DNS, no sockets to anywhere.",
	"    Bring the data to the program: paste it in, or put it in the Carry pane.",
	"  2 Limited filesystem: only a small temporary work dir is writable; host",
	"    and system files are not there. Files left behind are listed, then gone.",
	"  3 Stateless runs: every run starts from nothing. Keep results with",
	"    carry(name=value) and F2; the Carry pane is sent with the next run.",
	"  4 Time limits: CPU time and wall-clock time are capped (Resources pane).",
	"    Work on a representative sample; scale up elsewhere.",
	"  5 Memory limit: large allocations fail with MemoryError.",
	"  Processes, output and disk use are bounded too.",
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

#define N_LINES ((int)(sizeof help_lines / sizeof *help_lines))

void help_open(struct help_view *h)
{
	h->active = true;
	h->top = 0;
}

void help_key(struct help_view *h, int key, int rows)
{
	int page = rows > 6 ? rows - 6 : 1;

	switch (key) {
	case KEY_UP: h->top--; break;
	case KEY_DOWN: h->top++; break;
	case KEY_PPAGE: h->top -= page; break;
	case KEY_NPAGE: case ' ': h->top += page; break;
	case KEY_HOME: h->top = 0; break;
	case KEY_END: h->top = N_LINES; break;
	case 27: case 'q': case KEY_F(1): case 7: case '\n': case '\r':
		h->active = false;
		break;
	default: break;
	}
	if (h->top > N_LINES - 1) h->top = N_LINES - 1;
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

	if (w < 10 || hh < 3)
		return;
	if (h->top > N_LINES - in.h && N_LINES > in.h)
		h->top = N_LINES - in.h;
	layout_clear(win, r, a);
	layout_frame(win, r, "Help", "Esc closes", true, th);
	for (int y = 0; y < in.h && h->top + y < N_LINES; y++) {
		const char *s = help_lines[h->top + y];
		bool head = s[0] && s[0] != ' ';
		text_draw(win, in.y + y, in.x + 1, in.w - 2, s, strlen(s),
			  head ? a | A_BOLD : a);
	}
}
