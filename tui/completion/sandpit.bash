# SPDX-License-Identifier: MIT
# bash completion for sandpit(1): the commands, their options, file
# names where an option takes a file (directories too, to walk into),
# and the values of options that take one of a list. Installed as
# bash-completion/completions/sandpit; @THEMEDIR@ is replaced at build
# time by the installed themes directory (SANDPIT_THEMEDIR overrides).

# Append the lines of stdin to COMPREPLY (names with spaces stay whole).
_sandpit_add()
{
	local w
	while IFS= read -r w; do
		COMPREPLY+=("$w")
	done
}

# Files starting with $cur that match one of the glob patterns given
# (every file with none), and directories.
_sandpit_files()
{
	local f pat
	while IFS= read -r f; do
		if [ -d "$f" ] || [ $# -eq 0 ]; then
			COMPREPLY+=("$f")
			continue
		fi
		for pat in "$@"; do
			# shellcheck disable=SC2053
			if [[ $f == $pat ]]; then
				COMPREPLY+=("$f")
				break
			fi
		done
	done < <(compgen -f -- "$cur")
}

_sandpit_themes()
{
	local d=${SANDPIT_THEMEDIR:-@THEMEDIR@} f
	for f in "$d"/*.theme; do
		[ -e "$f" ] || continue
		f=${f##*/}
		printf '%s\n' "${f%.theme}"
	done
}

_sandpit()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local cmd="" i
	COMPREPLY=()
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		run|mcp|doctor|learn|view) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done

	local limits="--cpu --wall --memory --output --disk --procs --python"
	local play="$limits --theme --no-mouse --config --lessons"
	local runopts="$limits --carry --carry-out --carry-max --stdin --file --keep --json --columns --help --batch --jobs --preload"
	local mcpopts="--jobs --allow-dir --max-cpu --max-wall --max-memory --max-output --max-disk --max-procs --max-queue --max-pending --max-message --max-result --preload --python --help"

	# the value of the option before
	case $prev in
	--cpu|--wall)
		_sandpit_add < <(compgen -W "0.5 1 2 5 10 30" -- "$cur"); return ;;
	--memory|--disk|--output|--carry-max)
		_sandpit_add < <(compgen -W "64K 1M 16M 64M 256M 512M 1G" -- "$cur"); return ;;
	--procs)
		_sandpit_add < <(compgen -W "1 8 16 64 256" -- "$cur"); return ;;
	--columns)
		_sandpit_add < <(compgen -W "80 100 120 160" -- "$cur"); return ;;
	--theme)
		# a shipped theme's name, or a theme file
		_sandpit_add < <(compgen -W "$(_sandpit_themes)" -- "$cur")
		_sandpit_files '*.theme'
		return ;;
	--carry|--carry-out)
		_sandpit_files '*.json'; return ;;
	--python|--stdin|--config|--file)
		_sandpit_files; return ;;
	--keep|--lessons|--allow-dir)
		_sandpit_add < <(compgen -d -- "$cur"); return ;;
	--max-cpu|--max-wall)
		_sandpit_add < <(compgen -W "1 5 10 30 60" -- "$cur"); return ;;
	--max-memory|--max-disk|--max-output|--max-pending|--max-message)
		_sandpit_add < <(compgen -W "16M 64M 256M 512M 1G" -- "$cur"); return ;;
	--max-queue)
		_sandpit_add < <(compgen -W "0 4 16 64" -- "$cur"); return ;;
	--jobs|--max-procs)
		_sandpit_add < <(compgen -W "1 2 4 8 16" -- "$cur"); return ;;
	--max-result)
		_sandpit_add < <(compgen -W "256K 1M 4M" -- "$cur"); return ;;
	esac

	case $cmd in
	"")
		if [[ $cur == -* ]]; then
			_sandpit_add < <(compgen -W "$play --help --version" -- "$cur")
		else
			_sandpit_add < <(compgen -W "run mcp doctor learn view" -- "$cur")
			_sandpit_files '*.py'
		fi ;;
	run)
		if [[ $cur == -* ]]; then
			_sandpit_add < <(compgen -W "$runopts" -- "$cur")
		else
			_sandpit_files '*.py'
		fi ;;
	mcp)
		_sandpit_add < <(compgen -W "$mcpopts" -- "$cur") ;;
	doctor)
		_sandpit_add < <(compgen -W "--help" -- "$cur") ;;
	learn)
		_sandpit_add < <(compgen -W "$play --step --reset --list --verify --check --json --help" -- "$cur") ;;
	view)
		if [[ $cur == -* ]]; then
			_sandpit_add < <(compgen -W "--help" -- "$cur")
		else
			_sandpit_files '*.png' '*.PNG' '*.jpg' '*.JPG' '*.jpeg' '*.JPEG'
		fi ;;
	esac
}
complete -o filenames -F _sandpit sandpit
