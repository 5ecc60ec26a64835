"""One position solved on a Dask cluster: the tree split into tasks, the
answers gathered into one (``mancala solve --scheduler ADDRESS``).

:class:`ClusterSolver` expands the tree from the position, one ply at a
time, until a level holds at least ``tasks`` positions that are not
finished (at most :data:`MAX_SPLIT_PLIES` plies deep; never less than one,
as every first move gets its own result). Each distinct position of that
level is a task: a :class:`~mancala_cli.solving.search.Solver` on a worker
(:func:`solve_task`), with a table of the memory given and the time left.
The positions above form the split tree, kept by the client, whose
intervals are backed up by negamax as the tasks' answers come in
(:class:`distributed.as_completed`).

A task is searched in rounds: first within :data:`FIRST_BUDGET` positions;
one that its budget leaves open is searched again with
:data:`BUDGET_GROWTH` times the budget, all the tasks' rounds of a smaller
budget first (Dask's priorities). So the easy tasks end first, and once a
position of the split tree below the first moves is decided (a reply that
wins for its mover, or every reply known), the tasks under it are no
longer needed: those waiting are cancelled, those running are told to
stop (they read a Dask ``Variable`` every :data:`POLL_SECONDS`). The first
moves are all searched to their end, as :meth:`Solver.solve` does. A round
repeats the work of the rounds before it (a task keeps no table between
them); with budgets growing fourfold that is at most a third more.

Why the answer is the one process's:

- Every value either search finds is an interval that holds the true
  value, however it was found (a round's interval, a task's, the negamax of
  intervals over the split tree); so where both prove a result, the results
  agree. Where a limit stops them, either may leave ``unknown`` what the
  other proved.
- ``kimasai-klamroth`` (KK-4b: a position that recurs on the line is a
  draw) makes a value depend on the line that led to it. Each task carries
  what the one process's search carries at that point: the earlier
  positions that can still recur (in that game stones only leave the board,
  so after a capture none with more stones can come back; see
  :meth:`Solver.child_history`), and the split tree uses them as the search
  does (for the moves, the ends of the game, the table keys). So a task
  answers for that position on that line, exactly; two lines that reach one
  position with the same earlier positions share one task.
- The other games have no repetition rule; a position's value does not
  depend on the line. A position that recurs on the line of the split tree
  is left unknown, as the one process leaves it; one that recurs inside a
  task is unknown there too. A task does not know the positions above it
  (nor does it count their plies against :data:`~mancala_cli.solving.search.MAX_PLIES`),
  so it may search on where the one process stops: it can prove more,
  never something else.

``distributed`` is imported by the client's calls only; a task imports the
rules and the solver, nothing of the command line.
"""
from __future__ import annotations

import pickle
import time
import uuid
from collections.abc import Callable, Collection
from typing import Any, Final

from ..rules.game import Game, MancalaError, Move
from ..rules.position import Position, PositionKey
from ..rules.registry import get_game
from .search import DEFAULT_MEMORY, Solver
from .search_result import LOSS, RESULT_NAMES, WIN, SearchResult, TableKey, result_name

#: The deepest the tree is split (plies from the position).
MAX_SPLIT_PLIES: Final = 12
#: Tasks per worker thread when ``tasks`` is not given: enough that the
#: threads stay busy as tasks are cut off or end early.
TASKS_PER_THREAD: Final = 4
#: The positions a task may search in its first round; a task left open
#: by its budget is searched again with :data:`BUDGET_GROWTH` times as many.
FIRST_BUDGET: Final = 1 << 16
BUDGET_GROWTH: Final = 4
#: The share of its node budget after which a task stops deepening and
#: searches every line to its end (the one process deepens for
#: :data:`~mancala_cli.solving.search.DEEPENING_SHARE` of its limit). Measured
#: on the positions of tests/test_cluster_solve.py: with 1/32, the
#: kimasai-mackay one took 11.5 million positions (one process: 128,000);
#: with 1/4, 0.72 million; with 1/2, the first kingulu one took 21.6
#: million positions against 3.5 million with 1/4.
TASK_DEEPENING: Final = 1 / 4
#: How often a running task asks whether it should stop (seconds).
POLL_SECONDS: Final = 1.0
#: How long a task waits for the answer to whether it should stop before
#: it stops anyway (the scheduler is gone or too slow to matter).
ASK_SECONDS: Final = 5.0
#: How often a round that stopped without being told to (it could not
#: reach the scheduler) is run again.
RETRIES: Final = 3
#: How long the client waits, after the time limit or a stop, for the
#: tasks under way to send what they found, before it gives them up.
GRACE_SECONDS: Final = 5.0

#: A progress callback: the tasks done, the tasks in all, the positions
#: searched by the tasks done and the seconds since the start.
Progress = Callable[[int, int, int, float], None]


class ClusterSolveError(MancalaError):
    """The cluster could not run a task (it failed on every worker it was
    given to, or a worker cannot load the project); the message is one line."""


class ClusterSolution(SearchResult):
    """A :class:`~mancala_cli.solving.search.Solution` gathered from a
    cluster, with ``pv``: a principal variation (the moves from the
    position, each player's best, through the split tree and one move
    into the task below it; empty while the result is not proven),
    ``tasks`` (the tasks the tree was split into) and ``split`` (the plies
    of the split tree)."""

    def __init__(self, *args: Any, pv: list[Move] | None = None, tasks: int = 0, split: int = 0,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pv = pv or []
        self.tasks = tasks
        self.split = split

    def __repr__(self) -> str:
        return super().__repr__()[:-1] + f", {self.tasks} tasks>"


class _Node:
    """A position of the split tree: its interval for the side to move."""

    __slots__ = ("position", "past", "key", "move", "parent", "children", "ply", "low", "high", "task")

    def __init__(self, position: Position, past: frozenset[PositionKey], key: TableKey, move: Move | None,
                 parent: _Node | None, ply: int) -> None:
        self.position, self.past, self.key, self.move, self.parent, self.ply = position, past, key, move, parent, ply
        self.children: list[_Node] = []
        self.low, self.high = LOSS, WIN
        self.task: _Task | None = None

    def cut(self) -> bool:
        """Whether a position above this one (below the first moves) is
        decided, so that this one's value no longer matters."""
        node = self.parent
        while node is not None and node.parent is not None:
            if node.low == node.high:
                return True
            node = node.parent
        return False


class _Task:
    """One position searched on the workers (for every node of the split
    tree it stands for), in rounds of growing node budgets."""

    __slots__ = ("index", "nodes", "future", "budget", "rounds", "low", "high", "searched", "depth", "stopped",
                 "best", "cancelled", "retries")

    def __init__(self, index: int, node: _Node, budget: int) -> None:
        self.index = index
        self.nodes = [node]
        self.future: Any = None
        self.budget = budget
        self.rounds = 0
        #: What the rounds found: the interval, the positions searched, the
        #: deepest depth, why the last round stopped (``None``: it ran to
        #: its end; ``"waiting"``: no round has ended) and its best move.
        self.low, self.high = LOSS, WIN
        self.searched = 0
        self.depth = 0
        self.stopped: str | None = "waiting"
        self.best = -1
        self.cancelled = False
        self.retries = 0

    def needed(self) -> bool:
        return any(not node.cut() for node in self.nodes)

    def take(self, answer: tuple[int, int, int, int, str | None, int]) -> None:
        """A round's answer (see :func:`solve_task`)."""
        low, high, searched, depth, stopped, best = answer
        # (Each round's interval holds the true value: together they hold it too.)
        self.low, self.high = max(self.low, low), min(self.high, high)
        self.searched += searched
        self.depth = max(self.depth, depth)
        self.stopped = stopped
        if best >= 0:
            self.best = best


class _Call:
    """``function(*args)``, run by unpickling it: a task that only the
    standard library runs (``pickle.loads`` of its bytes), so that a worker
    that cannot import the project fails that task, an error the client
    reports, instead of failing to decode the message that carries it."""

    def __init__(self, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.function, self.args = function, args

    def __reduce__(self) -> tuple[Any, ...]:
        return self.function, self.args


def _told_to_stop(control: str, index: int) -> bool:
    """Whether the client has asked task ``index`` (or every task) to stop.
    A variable that is gone (the search is over: the client sets it before
    any task is submitted and deletes it when it leaves) or a scheduler that
    does not answer within :data:`ASK_SECONDS` stops the task too: nobody
    waits for its answer. (The scheduler waits for a variable that is not
    there; the timeout of the call bounds the whole question, connecting
    included, however the connection fails.)"""
    distributed = _distributed()
    try:
        variable = distributed.Variable(control, client=distributed.get_client(timeout=ASK_SECONDS))
        stop_all, cancelled = variable.get(timeout=0, callback_timeout=ASK_SECONDS)
    except Exception:  # noqa: BLE001 (whatever the lost connection raises)
        return True
    return bool(stop_all) or index in cancelled


def solve_task(game_id: str, position: Position, past: frozenset[PositionKey], memory: int, deadline: float | None,
               budget: int, control: str | None, index: int) -> tuple[int, int, int, int, str | None, int]:
    """One round of one task, run on a worker: solve ``position`` (with the
    earlier positions ``past`` that can recur) within ``budget`` positions
    and until the wall-clock time ``deadline`` (``time.time()``; ``None``:
    no limit), with a table of at most ``memory`` bytes. Every
    :data:`POLL_SECONDS` it asks the Dask variable ``control`` whether it
    should stop. Returns the interval of the value for the side to move
    (``LOSS`` .. ``WIN``), the positions searched, the depth reached, why it
    stopped (``None``, ``nodes``, ``time`` or ``interrupted``) and the origin
    of its first best move (-1: none)."""
    if control is not None and _told_to_stop(control, index):
        return LOSS, WIN, 0, 0, "interrupted", -1
    seconds = None
    if deadline is not None:
        seconds = deadline - time.time()
        if seconds <= 0:
            return LOSS, WIN, 0, 0, "time", -1
    solver = _TaskSolver(get_game(game_id), memory=memory)
    last = time.monotonic()

    def progress(depth: int, nodes: int, elapsed: float) -> None:
        # (Called every few thousand positions, also from the native search:
        # besides polling, it lets the worker's other threads run.)
        nonlocal last
        now = time.monotonic()
        if control is not None and now - last >= POLL_SECONDS:
            last = now
            if _told_to_stop(control, index):
                solver.stop()

    solution = solver.solve(position, nodes=budget, seconds=seconds, history=past, progress=progress)
    solver.table = {}
    low, high = (_VALUES[name] for name in solution.bounds)
    best = solution.best[0].origin if solution.best else -1
    return low, high, solution.nodes, solution.depth, solution.stopped, best


class _TaskSolver(Solver):
    """A task's solver: it deepens for :data:`TASK_DEEPENING` of its node
    budget (rather than the one process's :data:`DEEPENING_SHARE`), as a
    round that ends open is searched again with a larger budget."""

    def spent(self, share: float) -> bool:
        return super().spent(TASK_DEEPENING)


_VALUES: Final = {name: value for value, name in RESULT_NAMES.items()}


class ClusterSolver:
    """Solves positions of one game on the Dask cluster of ``client`` (a
    connected :class:`distributed.Client`), each task with a table of at
    most ``memory`` bytes (a worker thread runs one task at a time)::

        solution = ClusterSolver(client, get_game("kingulu")).solve(position, seconds=600)

    ``tasks`` is how many positions to split the tree into at least
    (default: :data:`TASKS_PER_THREAD` per worker thread).
    """

    def __init__(self, client: Any, game: Game, *, memory: int = DEFAULT_MEMORY, tasks: int | None = None) -> None:
        if memory < 0:
            raise ValueError(f"memory must be a number of bytes >= 0, not {memory!r}")
        if tasks is not None and tasks < 1:
            raise ValueError(f"tasks must be at least 1, not {tasks!r}")
        self.client, self.game, self.memory, self.tasks = client, game, memory, tasks
        self.stopped = False

    def __repr__(self) -> str:
        return f"<ClusterSolver {self.game.id}, tables of at most {self.memory:,} bytes>"

    def stop(self) -> None:
        """Stop the search under way (from a signal handler or another
        thread): :meth:`solve` tells the tasks to stop and returns what they
        found so far, ``stopped`` ``interrupted``."""
        self.stopped = True

    # -- the split tree ----------------------------------------------------------
    def _expand(self, node: _Node, helper: Solver, counted: list[int]) -> list[_Node]:
        """``node``'s children, in the order of the legal moves; each
        finished one gets its value, and one that recurs on
        the line (games without a repetition rule) stays unknown."""
        game = self.game
        pairs = list(game.successors(node.position, history=node.past))
        line: set[TableKey] = set()
        if not helper.history_game:
            up: _Node | None = node
            while up is not None:
                line.add(up.key)
                up = up.parent
        for move, after in pairs:
            past = helper.child_history(node.position, after, node.past)
            child = _Node(after, past, helper.key(after, past), move, node, node.ply + 1)
            node.children.append(child)
            counted[0] += 1
            if child.key in line:
                child.task = None  # an endless line: unknown, as the search leaves it
                child.low, child.high = LOSS, WIN
                child.children = []
                continue
            if not any(True for _ in game.successors(after, history=past)):
                outcome = game.outcome(after, history=past, moves=[])
                value = 0 if outcome is None else helper.value_of(outcome.result, after)
                child.low = child.high = value
        return [child for child in node.children if child.low != child.high and child.key not in line]

    def _split(self, root: _Node, target: int, counted: list[int]) -> tuple[list[_Node], int]:
        """The positions to search on the workers, and the plies of the split."""
        helper = Solver(self.game, memory=0)
        level = [root]
        plies = 0
        while level and (plies == 0 or (len(level) < target and plies < MAX_SPLIT_PLIES)):
            level = [child for node in level for child in self._expand(node, helper, counted)]
            plies += 1
            _back_up_all(root)  # (a finished child may decide its parent: its siblings are not needed)
            level = [node for node in level if not node.cut()]
        return level, plies

    # -- the search --------------------------------------------------------------
    def solve(self, position: Position, *, seconds: float | None = None, history: Collection[PositionKey] = (),
              progress: Progress | None = None) -> ClusterSolution:
        """Solve ``position`` for the side to move within ``seconds`` (wall
        time of the whole search; every task stops then too; ``None``: no
        limit), ``history`` holding the keys of earlier positions of the
        game (KK-4b). ``progress`` hears of each task done. Raises
        :class:`ClusterSolveError` when the cluster cannot run a task."""
        started = time.monotonic()
        self.stopped = False
        game = self.game
        helper = Solver(game, memory=0)
        past: frozenset[PositionKey] = frozenset()
        if helper.history_game:
            stones = sum(position.holes)
            past = frozenset(key for key in history if sum(key[0]) <= stones)
        if not any(True for _ in game.successors(position, history=past)):  # a finished game
            solution = Solver(game, memory=0).solve(position, history=past)
            return ClusterSolution(solution.result, [], [], solution.nodes, time.monotonic() - started, 0,
                                   outcome=solution.outcome)
        root = _Node(position, past, helper.key(position, past), None, None, 0)
        counted = [1]
        threads = sum(self.client.nthreads().values()) or 1
        leaves, plies = self._split(root, self.tasks or TASKS_PER_THREAD * threads, counted)
        tasks: dict[TableKey, _Task] = {}
        for node in leaves:
            task = tasks.get(node.key)
            if task is None:
                task = tasks[node.key] = _Task(len(tasks), node, FIRST_BUDGET)
            else:
                task.nodes.append(node)
            node.task = task
        run = _Run(self, list(tasks.values()), started, seconds, progress, counted)
        try:
            run.go()
        finally:
            run.close()
        return self._gather(root, tasks, counted[0], plies, time.monotonic() - started)

    def _gather(self, root: _Node, tasks: dict[TableKey, _Task], counted: int, plies: int,
                seconds: float) -> ClusterSolution:
        """The answer: as :meth:`Solver.solve` gives it, from the split tree."""
        bounds = [(-child.high, -child.low) for child in root.children]
        low = max(b[0] for b in bounds)
        high = max(b[1] for b in bounds)
        nodes = counted + sum(task.searched for task in tasks.values())
        depth = plies
        stopped = None
        for task in tasks.values():
            depth = max(depth, task.nodes[0].ply + task.depth)
            if task.needed() and task.stopped is not None:
                stopped = "interrupted" if self.stopped else "time"
        if all(b[0] == b[1] for b in bounds):
            stopped = None
        moves = [(child.move, result_name(*b)) for child, b in zip(root.children, bounds)]
        best = [child.move for child, b in zip(root.children, bounds) if low == high and b[0] == b[1] == low]
        return ClusterSolution(result_name(low, high), moves, best, nodes, seconds, depth,
                               bounds=(RESULT_NAMES[low], RESULT_NAMES[high]),
                               move_bounds=[(RESULT_NAMES[b[0]], RESULT_NAMES[b[1]]) for b in bounds],
                               stopped=stopped, pv=self._pv(root) if low == high else [], tasks=len(tasks),
                               split=plies)

    def _pv(self, root: _Node) -> list[Move]:
        """A line of best moves: through the split tree, each side playing
        a child whose proven value is the node's, then the first best move
        of the task below."""
        line: list[Move] = []
        node = root
        while node.low == node.high:
            if not node.children:
                task = node.task
                if task is not None and task.best >= 0:
                    line.append(self.game.play(node.position, task.best, history=node.past)[0])
                break
            value = node.low
            following = next((child for child in node.children
                              if child.low == child.high == -value), None)
            if following is None or following.move is None:
                break
            line.append(following.move)
            node = following
        return line


class _Run:
    """One search on the cluster: the rounds of its tasks, submitted, and
    taken as they end, until every needed task is decided, the time is up
    or the solver is stopped. The Dask variable :attr:`control` tells the
    tasks under way whether to stop (:func:`_told_to_stop`)."""

    def __init__(self, solver: ClusterSolver, order: list[_Task], started: float, seconds: float | None,
                 progress: Progress | None, counted: list[int]) -> None:
        self.solver, self.client, self.order = solver, solver.client, order
        self.started, self.progress, self.counted = started, progress, counted
        self.control = f"mancala-solve-{_token()}"
        self.variable: Any = _distributed().Variable(self.control, client=self.client)
        self.cancelled: list[int] = []
        self.variable.set([0, self.cancelled])
        self.deadline = None if seconds is None else started + seconds
        self.deadline_wall = None if self.deadline is None else time.time() + (self.deadline - time.monotonic())
        self.running: dict[str, _Task] = {}  # a round's key: its task
        self.waiting: Any = None
        self.given_up_at: float | None = None

    def submit(self, task: _Task) -> None:
        node = task.nodes[0]
        payload = pickle.dumps(_Call(solve_task, (self.solver.game.id, node.position, node.past, self.solver.memory,
                                                  self.deadline_wall, task.budget, self.control, task.index)),
                               pickle.HIGHEST_PROTOCOL)
        # The rounds of smaller budgets first, each in the order of the moves.
        task.future = self.client.submit(pickle.loads, payload, pure=False,
                                         key=f"{self.control}-{task.index}-{task.rounds}",
                                         priority=-(task.rounds * len(self.order) + task.index))
        self.running[task.future.key] = task
        self.waiting.add(task.future)

    def go(self) -> None:
        """Submit every task, then take the rounds as they end."""
        self.waiting = _distributed().as_completed([], loop=self.client.loop)
        for task in self.order:
            self.submit(task)
        while self.running:
            now = time.monotonic()
            if self.given_up_at is None and (self.solver.stopped or
                                             (self.deadline is not None and now >= self.deadline)):
                if self.solver.stopped:
                    self.variable.set([1, self.cancelled])
                self.given_up_at = now + GRACE_SECONDS
            if self.given_up_at is not None and now >= self.given_up_at:
                break
            ready = self.waiting.next_batch(block=False)
            if not ready:
                time.sleep(0.02)
                continue
            for future in ready:
                self.take(future)

    def take(self, future: Any) -> None:
        """A round that ended: its answer backed up the split tree, the
        tasks no longer needed cancelled, and its task searched again where
        it is still open."""
        task = self.running.pop(future.key, None)
        if task is None or future.status == "cancelled":
            return
        if future.status == "error":
            if task.cancelled or not task.needed():
                return
            raise ClusterSolveError(_failure(future))
        task.take(future.result())
        task.rounds += 1
        # Its answer is taken: the scheduler need not keep it, nor
        # compute it again when the worker holding it is lost.
        task.future = None
        future.release()
        for node in task.nodes:
            node.low, node.high = task.low, task.high
            _back_up(node.parent)
        self.cancel_unneeded()
        if task.low != task.high and task.needed() and self.given_up_at is None:
            if task.stopped == "nodes":
                task.budget *= BUDGET_GROWTH
                self.submit(task)
            elif task.stopped == "interrupted" and task.retries < RETRIES:
                task.retries += 1  # (it could not read the variable: the scheduler was slow)
                self.submit(task)
        if self.progress is not None:
            order = self.order
            self.progress(sum(t.stopped != "waiting" and t.future is None for t in order),
                          len(order), self.counted[0] + sum(t.searched for t in order),
                          time.monotonic() - self.started)

    def cancel_unneeded(self) -> None:
        """Cancel the rounds under way of the tasks whose value no longer matters."""
        unneeded = [t for t in self.running.values() if not t.cancelled and not t.needed()]
        if unneeded:
            for t in unneeded:
                t.cancelled = True
                self.cancelled.append(t.index)
                del self.running[t.future.key]
            self.client.cancel([t.future for t in unneeded])
            for t in unneeded:
                t.future = None
            self.variable.set([1 if self.solver.stopped else 0, self.cancelled])

    def close(self) -> None:
        """Tell the tasks under way to stop, however the search ended."""
        try:
            # The tasks under way stop at their next question (a task
            # cancelled while running runs on, as Dask cannot stop a
            # thread); one that asks after the variable is gone stops too.
            self.variable.set([1, self.cancelled], callback_timeout=GRACE_SECONDS)
            self.client.cancel([task.future for task in self.order if task.future is not None])
            self.variable.delete()
        except Exception:  # noqa: BLE001 (the scheduler may be gone already)
            pass


def _back_up(node: _Node | None) -> None:
    """Negamax over the children's intervals, from ``node`` up to the root."""
    while node is not None:
        if node.children:
            node.low = max(-child.high for child in node.children)
            node.high = max(-child.low for child in node.children)
        node = node.parent


def _back_up_all(node: _Node) -> None:
    """Negamax over the whole split tree below ``node``, from its leaves."""
    if node.children:
        for child in node.children:
            _back_up_all(child)
        node.low = max(-child.high for child in node.children)
        node.high = max(-child.low for child in node.children)


def _distributed() -> Any:
    """The ``distributed`` package (imported by the client's calls only)."""
    import distributed  # (local: the cluster extra, an optional dependency)

    return distributed


def _token() -> str:
    return uuid.uuid4().hex


def _failure(future: Any) -> str:
    """One line for a task that failed."""
    error = future.exception()
    text = " ".join(str(error).split()) or type(error).__name__
    if len(text) > 200:
        text = text[:197] + "..."
    if isinstance(error, (ImportError, AttributeError)):
        return f"a worker cannot load the project ({text}); install mancala on every worker"
    if isinstance(error, (MemoryError, SystemError)):
        return "a worker ran out of memory while solving (each task's table may use the --memory given; less helps)"
    return f"the cluster failed a task: {text}"
