#!/usr/bin/env python3
"""Soak games through python-chess: real clocks, pondering, Chess960, checked move by move.

What the match runner (fastchess, in tools/soak.sh's plain runs) does not
do: pondering (python-chess sends `go
ponder`, then `ponderhit` or `stop`), Chess960 from random start positions,
stalls injected into the first engine (SIGSTOP for some milliseconds during
its move), and a check of every `info ... pv` and `bestmove` line: each move
legal in sequence, castling written e1g1 in standard chess and
king-takes-rook (e1h1) with UCI_Chess960.

A move's time runs from the `go` (or `ponderhit`) line sent to the `bestmove`
line read, as a match runner does; a move later than the clock plus --margin loses on
time. Counted per engine, each a failure (exit status 1): crashes (the process
died), hangs (no move --hang seconds after its clock ran out, or no answer
to the `stop`/`isready` after a game; the engine is killed and restarted),
illegal moves, time losses, python-chess warnings and errors (stderr output,
unparsable lines), notation problems. Also printed: the smallest clock left
after a move, per engine, and the `go ponder`/`ponderhit`/`stop` lines sent.

    python3 tools/soak.py --engine target/release/cutoff --tc 1+0.01 --games 10 \\
        --ponder both --option Threads=1 --option Hash=16 --pgn soak.pgn
    python3 tools/soak.py --chess960 --games 100 --tc 5+0.05 --pgn c960.pgn
    python3 tools/soak.py --summary a.pgn b.pgn   # also reads fastchess's PGNs
"""

import argparse
import asyncio
import logging
import os
import random
import re
import shlex
import signal
import sys
import threading
import time
import traceback
from collections import Counter, defaultdict

import chess
import chess.engine
import chess.pgn

FAILURES = ("crash", "hang", "illegal move", "time loss", "warning", "notation")
# Keywords that may follow the moves of a `pv` in an `info` line.
INFO_KEYS = {"depth", "seldepth", "time", "nodes", "multipv", "score", "currmove", "hashfull",
             "currmovenumber", "nps", "tbhits", "sbhits", "cpuload", "string", "refutation",
             "currline", "wdl", "pv"}
SENT, READ = "%s: << %s", "%s: >> %s"     # python-chess's DEBUG lines for engine I/O


class Wire(logging.Handler):
    """Sees every line python-chess exchanges with an engine (its DEBUG log) and
    every warning. Keeps the lines for the notation check and times each move
    from `go`/`ponderhit` to `bestmove`, so that python-chess's own work
    (`ucinewgame`, `isready`, `stop` of a missed ponder) is never charged."""

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.guard = threading.Lock()
        self.lines = defaultdict(list)    # id(protocol) -> [(sent, line)]
        self.go_at, self.spent = {}, {}   # id(protocol) -> time of `go`, seconds of the last move
        self.warnings = []                # (id(protocol) or None, message)
        self.names = {}                   # id(protocol) -> engine name

    def emit(self, record):
        args = record.args if isinstance(record.args, tuple) else ()
        key = id(args[0]) if args else None
        if record.levelno >= logging.WARNING:
            with self.guard:
                self.warnings.append((key, record.getMessage()))
            return
        if record.msg not in (SENT, READ) or len(args) != 2:
            return
        now, line = time.monotonic(), args[1]
        with self.guard:
            self.lines[key].append((record.msg == SENT, line))
            if record.msg == SENT and (line == "ponderhit" or line.startswith("go") and not line.startswith("go ponder")):
                self.go_at[key] = now
                self.spent.pop(key, None)
            elif record.msg == READ and line.startswith("bestmove") and key in self.go_at:
                self.spent[key] = now - self.go_at.pop(key)

    def take(self, key):
        with self.guard:
            return self.lines.pop(key, [])

    def move_time(self, key):
        with self.guard:
            return self.spent.pop(key, None)


WIRE = Wire()


class Notation:
    """Replays the `position` lines an engine is sent and checks its `info ... pv`
    and `bestmove` moves: legal in sequence and written as in the mode."""

    def __init__(self, chess960):
        self.chess960, self.board, self.castles = chess960, None, 0
        self.problems, self.sent = [], Counter()     # `go ponder` and `ponderhit` lines

    def feed(self, sent, line):
        words = line.split()
        if sent and words[:1] == ["position"]:
            self.board = self.position(words)
        elif sent and words[:2] in (["go", "ponder"], ["ponderhit"], ["stop"]):
            self.sent[" ".join(words[:2])] += 1
        elif not sent and words[:1] == ["info"] and "pv" in words and "string" not in words:
            self.check(words[words.index("pv") + 1:], line)
        elif not sent and words[:1] == ["bestmove"]:
            moves = words[1:2] + (words[3:4] if words[2:3] == ["ponder"] else [])
            self.check([m for m in moves if m != "(none)"], line)

    def position(self, words):
        try:
            board = chess.Board(chess960=self.chess960)
            if words[1:2] == ["fen"]:
                end = words.index("moves") if "moves" in words else len(words)
                board.set_fen(" ".join(words[2:end]))
            if "moves" in words:
                for m in words[words.index("moves") + 1:]:
                    board.push_uci(m)
            return board
        except (ValueError, IndexError) as e:
            self.problems.append(f"cannot replay '{' '.join(words)}': {e}")
            return None

    def check(self, moves, line):
        if self.board is None:
            return
        board = self.board.copy(stack=False)
        for token in moves:
            if token in INFO_KEYS:
                break
            try:
                move = board.parse_uci(token)
            except ValueError:
                self.problems.append(f"illegal {token} in '{line}' ({board.fen()})")
                return
            if board.uci(move) != token:       # parse_uci also takes the other castling form
                self.problems.append(f"{token} should be {board.uci(move)} in '{line}'")
                return
            self.castles += board.is_castling(move)
            board.push(move)


class Player:
    """One engine process with its options, restarted after it misbehaves."""

    def __init__(self, name, cmd, options, ponder, chess960, stalls):
        self.name, self.cmd, self.options, self.ponder = name, cmd, options, ponder
        self.stalls, self.notation, self.engine = stalls, Notation(chess960), None

    def start(self):
        self.engine = chess.engine.SimpleEngine.popen_uci(shlex.split(self.cmd))
        self.key = id(self.engine.protocol)
        WIRE.names[self.key] = self.name
        if not any(line == "uciok" for _, line in WIRE.take(self.key)):
            raise RuntimeError("python-chess's debug log has changed: soak.py cannot see engine lines")
        # Parsed values: python-chess compares them with its own (a string "16" would
        # differ from 16, and then it never sends `ponderhit`).
        known = self.engine.options
        missing = [k for k in self.options if k not in known]
        if missing:
            raise RuntimeError(f"{self.name} has no option {', '.join(missing)}")
        self.engine.configure({k: known[k].parse(v) for k, v in self.options.items()})

    def play(self, board, limit, game, timeout):
        """SimpleEngine.play with a deadline (it has none for clocks)."""
        coro = asyncio.wait_for(self.engine.protocol.play(
            board.copy(), limit, game=game, info=chess.engine.INFO_SCORE, ponder=self.ponder), timeout)
        return asyncio.run_coroutine_threadsafe(coro, self.engine.protocol.loop).result()

    def check_lines(self):
        for sent, line in WIRE.take(self.key):
            self.notation.feed(sent, line)

    def settle(self):
        """Ends a ponder search (`stop`, `bestmove`, then `isready`) and checks the
        lines; returns a failure (kind, why) or None."""
        try:
            self.engine.ping()
        except TimeoutError:
            return "hang", "no bestmove or readyok 10 s after stop/isready"
        except chess.engine.EngineError as e:
            return "crash", str(e)
        finally:
            self.check_lines()
        return None

    def peak_kb(self):
        """The process's peak resident memory (VmHWM), in kB, or 0 if unknown."""
        try:
            with open(f"/proc/{self.engine.transport.get_pid()}/status") as f:
                return next((int(l.split()[1]) for l in f if l.startswith("VmHWM:")), 0)
        except (OSError, ValueError):
            return 0

    def restart(self):
        self.check_lines()
        self.engine.close()                    # kills the process
        self.notation.board = None
        self.start()

    def quit(self):
        try:
            self.engine.quit()
        except (chess.engine.EngineError, TimeoutError):
            self.engine.close()


class Stall(threading.Thread):
    """Stops an engine (SIGSTOP) for `ms` after `delay` s, as a stalled machine would."""

    def __init__(self, pid, delay, ms):
        super().__init__(daemon=True)
        self.pid, self.delay, self.ms = pid, delay, ms
        self.cancel, self.happened = threading.Event(), False

    def run(self):
        if self.cancel.wait(self.delay):
            return
        try:
            os.kill(self.pid, signal.SIGSTOP)
            self.happened = True
            time.sleep(self.ms / 1000)
            os.kill(self.pid, signal.SIGCONT)
        except ProcessLookupError:             # the engine is gone: counted elsewhere
            pass


def parse_tc(text):
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def start_position(args, pair):
    rng = random.Random(args.seed * 1_000_003 + pair)
    if args.chess960:
        return chess.Board.from_chess960_pos(rng.randrange(960)), 0
    board = chess.Board()
    for _ in range(args.random_plies):
        board.push(rng.choice(list(board.legal_moves)))
    return board, args.random_plies


def fmt_score(info):
    score = info.get("score")
    if score is None:
        return "?"
    s = score.relative
    return f"{'+' if s.mate() > 0 else '-'}M{abs(s.mate())}" if s.is_mate() else f"{s.score() / 100:+.2f}"


TERMINATION = {"crash": "abandoned", "hang": "stalled connection",
               "illegal move": "rules infraction", "time loss": "time forfeit"}


class Match:
    def __init__(self, args):
        self.args, self.lock = args, threading.Lock()
        self.fails = Counter()                # (engine, kind) -> count
        self.results, self.castles, self.stalls = Counter(), Counter(), Counter()
        self.sent = defaultdict(Counter)      # engine -> `go ponder`/`ponderhit`/`stop` sent
        self.reserve, self.stalled = {}, {}   # engine -> (seconds left, game, ply)
        self.peak = Counter()                 # engine -> largest peak resident memory, kB
        self.pgn = open(args.pgn, "a", encoding="utf-8") if args.pgn else None

    def fail(self, who, kind, why):
        with self.lock:
            self.fails[(who, kind)] += 1
            shown = sum(self.fails.values()) <= 100
        if shown:                              # the first 100; all are counted
            print(f"FAIL {who}: {kind}: {why}", flush=True)

    def note_reserve(self, table, who, left, n, ply):
        with self.lock:
            if who not in table or left < table[who][0]:
                table[who] = (left, n, ply)

    def move(self, n, p, board, clock, game, rng):
        """One move of player p: (move, comment), or (failure kind, why)."""
        a, side = self.args, board.turn
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=a.inc, black_inc=a.inc)
        stall = None
        if p.stalls and rng.random() < a.stall_rate:
            # At a random moment of a typical move: up to 1/40 of the clock plus the increment.
            stall = Stall(p.engine.transport.get_pid(), rng.uniform(0, clock[side] / 40 + a.inc), a.stall)
            stall.start()
        t0 = time.monotonic()
        try:
            result = p.play(board, limit, game, max(clock[side], 0) + a.hang)
        except TimeoutError:
            return "hang", f"no move {a.hang:g}s after its clock ran out"
        except chess.engine.EngineTerminatedError as e:
            return "crash", str(e)
        except chess.engine.EngineError as e:      # an illegal bestmove among others
            return "illegal move", f"{e} in {board.fen()}"
        finally:
            if stall:
                stall.cancel.set()
                stall.join()
        spent = WIRE.move_time(p.key)
        spent = time.monotonic() - t0 if spent is None else spent
        if result.move is None or result.move not in board.legal_moves:
            return "illegal move", f"{result.move} in {board.fen()}"
        left, ply = clock[side] - spent, len(board.move_stack) + 1
        self.note_reserve(self.reserve, p.name, left, n, ply)
        if stall and stall.happened:
            self.stalls[p.name] += 1
            self.note_reserve(self.stalled, p.name, left, n, ply)
        if left < -a.margin:
            return "time loss", f"{spent:.3f}s for {clock[side]:.3f}s left"
        clock[side] = max(left, 0.0) + a.inc
        info = result.info
        return result.move, f"{fmt_score(info)}/{info.get('depth', '?')} {spent:.3f}s"

    def play_game(self, n, white, black):
        a = self.args
        board, opening = start_position(a, n // 2)
        players = {chess.WHITE: white, chess.BLACK: black}
        clock = {chess.WHITE: a.base, chess.BLACK: a.base}
        rng, game, comments, end = random.Random(a.seed * 7919 + n), object(), [], None
        while end is None:
            outcome = board.outcome(claim_draw=True)
            if outcome:
                end = outcome.result(), outcome.termination.name.lower().replace("_", " "), "normal"
                break
            if len(board.move_stack) >= a.max_plies:
                end = "1/2-1/2", f"{a.max_plies} plies", "adjudication"
                break
            p = players[board.turn]
            played, text = self.move(n, p, board, clock, game, rng)
            if isinstance(played, chess.Move):
                board.push(played)
                comments.append(text)
                continue
            self.fail(p.name, played, f"game {n + 1}: {text}")
            loss = "0-1" if board.turn == chess.WHITE else "1-0"
            draw = played == "time loss" and board.has_insufficient_material(not board.turn)
            end = "1/2-1/2" if draw else loss, f"{p.name} {played}: {text}", TERMINATION[played]
            if played != "time loss":
                p.restart()
        for p in (white, black):
            if failed := p.settle():
                self.fail(p.name, failed[0], f"after game {n + 1}: {failed[1]}")
                p.restart()
        self.record(n, board, opening, comments, white, black, end)

    def record(self, n, board, opening, comments, white, black, end):
        result, reason, termination = end
        game = chess.pgn.Game()
        game.setup(board.root())
        game.headers.update(Event=self.args.event, Round=str(n + 1), White=white.name, Black=black.name,
                            Result=result, TimeControl=f"{self.args.base:g}+{self.args.inc:g}",
                            Termination=termination, TerminationDetails=reason)
        node = game
        for i, mv in enumerate(board.move_stack):
            node = node.add_variation(mv, comment="book" if i < opening else comments[i - opening])
        with self.lock:
            self.results[result] += 1
            if self.pgn:
                print(game, file=self.pgn, end="\n\n", flush=True)
        print(f"game {n + 1}: {white.name} - {black.name} {result} ({reason}, "
              f"{len(board.move_stack)} plies)", flush=True)

    def worker(self, games):
        a = self.args
        # Each worker has its own two processes, also in self-play.
        pair = [Player(a.engine_name, a.engine, a.options1, a.ponder in ("engine", "both"),
                       a.chess960, a.stall > 0),
                Player(a.opponent_name, a.opponent or a.engine, a.options2,
                       a.ponder in ("opponent", "both"), a.chess960, False)]
        try:
            for p in pair:
                p.start()
            for n in games:
                white, black = pair if n % 2 == 0 else pair[::-1]
                self.play_game(n, white, black)
        except Exception as e:                     # a bug of this tool, or an engine that does not start
            self.fail("soak.py", "crash", repr(e))
            traceback.print_exc()
        finally:
            for p in pair:
                if p.engine:
                    p.check_lines()
                    with self.lock:
                        self.peak[p.name] = max(self.peak[p.name], p.peak_kb())
                    p.quit()
                for problem in p.notation.problems:
                    self.fail(p.name, "notation", problem)
                with self.lock:
                    self.castles[p.name] += p.notation.castles
                    self.sent[p.name] += p.notation.sent


def report(m):
    """Prints the counts; returns the number of failures."""
    for key, msg in WIRE.warnings:
        m.fail(WIRE.names.get(key, "python-chess"), "warning", msg)
    print(f"results: {dict(m.results)}")
    for who in sorted({name for name, _ in m.fails} | set(m.reserve)):
        counts = ", ".join(f"{k} {m.fails[(who, k)]}" for k in FAILURES)
        left, n, ply = m.reserve.get(who, (float("nan"), 0, 0))
        line = (f"{who}: {counts}; smallest clock left {left * 1000:.0f} ms (game {n + 1}, ply {ply}); "
                f"castling moves checked in pv/bestmove {m.castles[who]}")
        if m.peak[who]:
            line += f"; peak resident memory {m.peak[who] / 1024:.1f} MB"
        if m.sent[who]:
            line += "; sent " + ", ".join(f"{k} {v}" for k, v in sorted(m.sent[who].items()))
        if who in m.stalled:
            left, n, ply = m.stalled[who]
            line += f"; {m.stalls[who]} stalls, smallest clock left after one {left * 1000:.0f} ms"
        print(line)
    total = sum(m.fails.values())
    print(f"{sum(m.results.values())} games, {total} failures")
    return total


def summary(files):
    """Terminations and smallest clocks in PGNs of soak.py, fastchess or
    match.py, the runner used before fastchess (their comments end a move
    with its time, e.g. `+0.25/12 0.034s`)."""
    bad = 0
    for path in files:
        terms, reserve, odd = Counter(), {}, []
        with open(path, encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                h = game.headers
                terms[h.get("Termination", "?")] += 1
                # match.py and soak.py: a tag; fastchess: the end of the last comment
                last = game.end().comment if game.end() is not game else ""
                details = h.get("TerminationDetails") or last.rpartition(", ")[2]
                if h.get("Termination") not in ("normal", "adjudication"):
                    odd.append(f"round {h.get('Round')}: {h.get('White')}-{h.get('Black')} {details}")
                base, _, inc = h.get("TimeControl", "0+0").partition("+")
                if not re.fullmatch(r"\d+(\.\d*)?", base) or not re.fullmatch(r"(\d+(\.\d*)?)?", inc):
                    continue                          # no clock (nodes, depth): no reserve
                clock = {chess.WHITE: float(base), chess.BLACK: float(base)}
                for node in game.mainline():
                    side = not node.turn()            # the side that made this move
                    if not (m := re.search(r"(\d+\.\d+)s\b", node.comment)):
                        continue                      # "book"
                    left = clock[side] - float(m[1])
                    name = h["White"] if side == chess.WHITE else h["Black"]
                    reserve[name] = min(reserve.get(name, left), left)
                    clock[side] = max(left, 0.0) + float(inc or 0)
                # A move that lost on time is not in the game, only in its details.
                if m := re.search(r"^(\S+).*?(\d+\.\d+)s for (-?\d+\.\d+)s left", h.get("TerminationDetails", "")):
                    name = h["White"] if m[1] in (h["White"], "White") else h["Black"]
                    reserve[name] = min(reserve.get(name, 0.0), float(m[3]) - float(m[2]))
                if m := re.search(r"^(White|Black) loses on time \((\d+)ms overrun\)", details):
                    name = h["White"] if m[1] == "White" else h["Black"]
                    reserve[name] = min(reserve.get(name, 0.0), -float(m[2]) / 1000)
        bad += len(odd)
        clocks = ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in sorted(reserve.items()))
        print(f"{path}: {sum(terms.values())} games, terminations {dict(terms)}; smallest clock left: {clocks}")
        for line in odd[:20]:
            print(f"  {line}")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--engine", default="target/release/cutoff")
    ap.add_argument("--opponent", help="the other engine's command (default: --engine again)")
    ap.add_argument("--engine-name", default="cutoff")
    ap.add_argument("--opponent-name", default="opponent")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="both engines")
    ap.add_argument("--engine-option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--opponent-option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--ponder", choices=("none", "engine", "opponent", "both"), default="none")
    ap.add_argument("--tc", type=parse_tc, default=(1.0, 0.01), help="seconds+increment (1+0.01)")
    ap.add_argument("--games", type=int, default=10, help="rounded up to even: pairs, colours swapped")
    ap.add_argument("--concurrency", type=int, choices=(1, 2), default=1)
    ap.add_argument("--chess960", action="store_true", help="random Chess960 start positions")
    ap.add_argument("--random-plies", type=int, default=4, help="random opening plies (standard chess)")
    ap.add_argument("--margin", type=float, default=50, help="ms over the clock before a time loss")
    ap.add_argument("--hang", type=float, default=10, help="s after the clock ran out: a hang")
    ap.add_argument("--stall", type=float, default=0, help="ms to SIGSTOP the first engine in a move")
    ap.add_argument("--stall-rate", type=float, default=0.1, help="share of its moves stalled")
    ap.add_argument("--max-plies", type=int, default=1000, help="then a draw by adjudication")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pgn", help="append the games to this PGN file")
    ap.add_argument("--event", default="Cutoff soak")
    ap.add_argument("--summary", nargs="+", metavar="PGN", help="only summarise PGNs, play nothing")
    a = ap.parse_args()
    if a.summary:
        return 1 if summary(a.summary) else 0
    a.base, a.inc = a.tc
    a.margin /= 1000
    if a.opponent is None:
        a.engine_name, a.opponent_name = a.engine_name + "-1", a.engine_name + "-2"
    a.options1 = dict(o.split("=", 1) for o in a.option + a.engine_option)
    a.options2 = dict(o.split("=", 1) for o in a.option + a.opponent_option)
    logger = logging.getLogger("chess.engine")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(WIRE)
    logger.propagate = False

    m = Match(a)
    games = list(range(a.games + a.games % 2))
    # Worker i plays pairs i, i + concurrency, ...: both colours of a start position.
    workers = [threading.Thread(target=m.worker, args=([g for g in games if g // 2 % a.concurrency == i],))
               for i in range(a.concurrency)]
    started = time.monotonic()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    print(f"{time.monotonic() - started:.0f} s; tc {a.base:g}+{a.inc:g}, ponder {a.ponder}, "
          f"chess960 {a.chess960}, options {a.options1} / {a.options2}")
    return 1 if report(m) else 0


if __name__ == "__main__":
    sys.exit(main())
