"""``boardai journal show`` and ``merge``: how far a long run's --resume journal got, and the
journals of one run played in parts put together."""

from __future__ import annotations

import argparse
import shlex
from typing import TYPE_CHECKING, Any

from boardai.cli._common import json_option

if TYPE_CHECKING:
    from boardai.arena.journal import RunProgress

#: Games part-way listed one a line at most (``--json`` lists all).
SHOWN_PART_WAY = 20


def register(app: argparse.Namespace) -> None:
    p = app.command(
        "journal show",
        help="how far a --resume journal's run got: games finished, part-way, still to play",
        description=(
            "Read a --resume journal (and the games cut short kept beside it) and say, for "
            "each of its runs, which games are finished, which are kept part-way (2048 games "
            "under way save their position every 30 seconds and when stopped; resuming goes "
            "on from there) and how many are still to play, and the command that goes on "
            "with the run (on this machine or another with the journal). Reads only: safe "
            "while the run is under way."
        ),
        examples="""
boardai journal show run.jsonl
boardai journal show run.jsonl --json               # the same as JSON, on stdout (with "resume")
boardai 2048 compare --from run.jsonl --tile 32768  # a 2048 run's results so far
""",
    )
    p.add_argument("file", metavar="FILE", help="the journal (a --resume file)")
    json_option(p, "write it as JSON instead")
    p.set_defaults(func=show)

    p = app.command(
        "journal merge",
        help="add to a --resume journal the games of others of the same run (played with --part)",
        description=(
            "A long run can be split over machines that share no cluster: each plays a --part "
            "of it with its own --resume journal. This adds to TARGET the games of the SOURCES "
            "that it lacks (a game is the same wherever it was played) and their games cut "
            "short; resuming TARGET then plays only what is still missing. Safe while a run "
            "writes to TARGET (lines are appended)."
        ),
        examples="""
boardai 2048 eval --agent expectimax --games 1000 --resume a.jsonl --part 0:500     # here
boardai 2048 eval --agent expectimax --games 1000 --resume b.jsonl --part 500:1000  # elsewhere
boardai journal merge a.jsonl b.jsonl
boardai 2048 eval --agent expectimax --games 1000 --resume a.jsonl   # the report of all 1000
""",
    )
    p.add_argument("target", metavar="TARGET", help="the journal to add to (made if missing)")
    p.add_argument("sources", metavar="SOURCE", nargs="+", help="journals of the same run")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import os

    from boardai.arena.journal import merge
    from boardai.cli._common import console, plural
    from boardai.errors import UsageError

    target = os.path.abspath(args.target)
    if any(os.path.abspath(s) == target for s in args.sources):
        raise UsageError(f"{args.target} is both the target and a source")
    done = merge(args.target, args.sources)
    carried = f"; {done.partial} games cut short carried over" if done.partial else ""
    console().print(
        f"{args.target}: {done.added:,} {plural(done.added, 'game')} added, "
        f"{done.games:,} in all{carried}"
    )
    return 0


def spans(indices: list[int]) -> str:
    """Sorted game indices as runs: ``0-64, 260-281, 284``."""
    out: list[str] = []
    k = 0
    while k < len(indices):
        j = k
        while j + 1 < len(indices) and indices[j + 1] == indices[j] + 1:
            j += 1
        out.append(str(indices[k]) if j == k else f"{indices[k]}-{indices[j]}")
        k = j + 1
    return ", ".join(out)


def resume_command(header: dict[str, Any], path: str) -> str | None:
    """The command line that goes on with the run of the journal at ``path`` (or, when every
    game is in it, reports the run without playing): its command with what its ``header``
    fixes (players, games, seed, Othello's epsilon, colours and random openings, whether games
    keep their records: then to a file named here); ``None`` for a header of a command it does
    not know. Workers and output files are free to choose: they do not change the games.

    >>> header = {"command": "eval", "players": ["expectimax"], "seed": 1, "games": 9}
    >>> resume_command(header, "r.jsonl")
    'boardai 2048 eval --agent expectimax --games 9 --seed 1 --resume r.jsonl'
    """
    command, players = header.get("command"), [str(p) for p in header.get("players") or []]
    named = [shlex.quote(p) for p in players]
    records = bool(header.get("records"))
    if command == "eval" and len(players) == 1:
        words = ["boardai 2048 eval --agent", named[0]] + ["--json run.json"] * records
    elif command == "compare" and players:
        words = ["boardai 2048 compare --agents", *named] + ["--json compare.json"] * records
    elif command == "othello match" and len(players) == 2:
        words = ["boardai othello match --black", named[0], "--white", named[1]]
        words += ["--no-swap"] * (header.get("swap") is False)
    elif command == "othello tournament" and players:
        words = ["boardai othello tournament --agents", *named]
    else:
        return None
    words += [f"--games {header.get('games')}", f"--seed {header.get('seed')}"]
    if str(command).startswith("othello"):
        words += [f"--epsilon {header['epsilon']}"] * bool(header.get("epsilon"))
        plies = header.get("random_plies")
        if plies:
            low, high = plies
            words.append(f"--random-plies {low}" if low == high else f"--random-plies {low}-{high}")
        words += ["--record games.jsonl"] * records
    return " ".join([*words, "--resume", shlex.quote(path)])


def _as_json(path: str, header: dict[str, Any], runs: list[RunProgress]) -> dict[str, Any]:
    from dataclasses import asdict

    return {
        "file": path,
        "header": header,
        "resume": resume_command(header, path),
        "runs": [
            {
                "run": r.run,
                "games": r.games,
                "finished": r.finished,
                "part_way": [asdict(c) for c in r.part_way],
                "to_play": r.to_play,
                "cpu_seconds_left": r.cpu_left(),
            }
            for r in runs
        ],
    }


def show(args: argparse.Namespace) -> int:
    from rich.markup import escape

    from boardai.arena.journal import journal_progress
    from boardai.cli._common import console, write_json

    header, runs = journal_progress(args.file)
    if args.json:
        write_json(args.json, _as_json(args.file, header, runs))
        return 0
    command = str(header.get("command"))
    game = "" if command.startswith("othello") else "2048 "
    models = ", ".join(f"{k} {v}" for k, v in (header.get("models") or {}).items())
    out = console()
    out.print(
        escape(
            f"{args.file}: {game}{command}, seed {header.get('seed')}, "
            f"{header.get('games')} games a run" + (f" (models: {models})" if models else "")
        ),
        highlight=False,
    )
    for r in runs:
        out.print(escape(r.run), style="bold", highlight=False)
        done = [i for i in r.finished if i < r.games]
        out.print(
            f"  finished   {len(done):,} of {r.games:,}" + (f": {spans(done)}" if done else ""),
            highlight=False,
        )
        if r.part_way:
            out.print(
                f"  part-way   {len(r.part_way):,}, kept as they stood (playing or cut short; "
                "a resumed run goes on from there):",
                highlight=False,
            )
            for c in r.part_way[:SHOWN_PART_WAY]:
                out.print(
                    f"             {c.index}: {c.moves:,} moves, {c.score:,} points, "
                    f"best tile {c.max_tile}",
                    highlight=False,
                )
            if len(r.part_way) > SHOWN_PART_WAY:
                more = len(r.part_way) - SHOWN_PART_WAY
                out.print(f"             and {more:,} more (--json lists all)", highlight=False)
        out.print(f"  to play    {r.to_play:,}", highlight=False)
        left, mean = r.cpu_left(), r.mean_cpu()
        if left is not None and mean is not None and (r.to_play or r.part_way):
            out.print(
                f"  play left  about {left / 3600:,.1f} core-hours (the finished games took "
                f"{mean / 60:,.1f} CPU-minutes each; the long games finish last, so likely more)",
                highlight=False,
            )
    complete = all(not r.to_play and not r.part_way for r in runs)
    again = resume_command(header, args.file)
    if again and not complete:
        out.print(escape(f"To go on: {again}"), highlight=False, soft_wrap=True)
    if game and any(r.finished for r in runs):
        out.print(
            escape(
                f"{'The results' if complete else 'The results so far'}: "
                f"boardai 2048 compare --from {args.file}"
            ),
            highlight=False,
            soft_wrap=True,
        )
    elif again and complete:
        out.print(
            escape(f"The results (every game is in the journal: it plays none): {again}"),
            highlight=False,
            soft_wrap=True,
        )
    return 0
