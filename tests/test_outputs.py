"""Output targets of -o, --out-dir and --style: one-line errors with exit 2,
file modes, symlinks, devices and FIFOs written in place, failing writes that
keep the old file, stale diagrams, and a damaged input converted onto itself."""
import contextlib
import errno
import os
import pathlib
import shutil
import stat
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from mancala_cli.cli.commands import whole

app = whole()

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
VILLAGE = EXAMPLES / "kingulu-village-match.pmn"  # one game of 23 moves
TOURNAMENT = EXAMPLES / "kingulu-tournament.pmn"
DAMAGED = EXAMPLES / "broken" / "damaged-records.pmn"
SHORT = '[Game "kingulu"]\n[Result "*"]\n\n1. c1x6 d2 2. e1 *\n'
runner = CliRunner()


def run(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


def one_error(result, code, message):
    """Exactly one stderr line, ``mancala: error: MESSAGE``, and exit ``code``."""
    assert result.exit_code == code, result.output
    assert result.stderr == f"mancala: error: {message}\n"
    assert result.exception is None or isinstance(result.exception, SystemExit)


def expected(*args):
    """What the command writes to standard output."""
    result = run(*args)
    assert result.exit_code == 0
    return result.stdout_bytes


def leftovers(folder):
    return sorted(p.name for p in pathlib.Path(folder).iterdir() if p.name.startswith(".mancala-"))


@contextlib.contextmanager
def umask(mask):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def device(path, minor):
    """A character device like /dev/null (minor 3) or /dev/full (minor 7)."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("cannot create device nodes here")
    return path


# -- bad targets: one line, exit 2 --------------------------------------------------

def test_convert_onto_a_directory(tmp_path):
    one_error(run("convert", "--to", "json", VILLAGE, "-o", tmp_path), 2, f"{tmp_path}: is a directory")
    assert list(tmp_path.iterdir()) == []


def test_render_onto_a_directory(tmp_path):
    one_error(run("render", VILLAGE, "-o", tmp_path), 2, f"{tmp_path}: is a directory")


def test_render_out_dir_that_is_a_file(tmp_path):
    target = tmp_path / "plies"
    target.write_text("a file\n")
    one_error(run("render", VILLAGE, "--all", "--out-dir", target), 2, f"{target}: is not a directory")
    assert target.read_text() == "a file\n"


def test_render_out_dir_that_is_the_input(tmp_path):
    source = tmp_path / "game.pmn"
    shutil.copy(VILLAGE, source)
    one_error(run("render", source, "--all", "--out-dir", source), 2, f"{source}: is not a directory")
    assert source.read_bytes() == VILLAGE.read_bytes()


def test_render_out_dir_with_a_missing_parent_is_refused_like_output(tmp_path):
    target = tmp_path / "missing" / "plies"
    one_error(run("render", VILLAGE, "--all", "--out-dir", target), 2,
              f"{target}: cannot create: No such file or directory")
    assert list(tmp_path.iterdir()) == []
    one_error(run("render", VILLAGE, "-o", target / "x.svg"), 2,
              f"{target / 'x.svg'}: cannot write: No such file or directory")


def test_render_out_dir_in_a_read_only_folder(tmp_path, monkeypatch):
    def refuse(path, mode=0o777):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)

    monkeypatch.setattr(os, "mkdir", refuse)
    target = tmp_path / "ro" / "sub"
    one_error(run("render", VILLAGE, "--all", "--out-dir", target), 2, f"{target}: cannot create: Permission denied")


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="no /sys/kernel")
def test_render_out_dir_where_nobody_can_write():
    result = run("render", VILLAGE, "--all", "--out-dir", "/sys/kernel/mancala-plies")
    assert result.exit_code == 2
    assert result.stderr.startswith("mancala: error: /sys/kernel/mancala-plies: cannot create: ")
    assert result.stderr.count("\n") == 1
    assert not os.path.exists("/sys/kernel/mancala-plies")


def test_render_out_dir_through_a_symlink(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    assert run("render", VILLAGE, "--all", "--out-dir", tmp_path / "link").exit_code == 0
    assert len(list(real.glob("ply-*.svg"))) == 24 and (tmp_path / "link").is_symlink()


@pytest.mark.parametrize("args,message", [
    (("convert", "--to", "json", VILLAGE, "-o", ""), "--output: empty file name"),
    (("render", VILLAGE, "-o", ""), "--output: empty file name"),
    (("render", VILLAGE, "--all", "--out-dir", ""), "--out-dir: empty folder name"),
    (("render", VILLAGE, "--style", ""), "--style: empty file name"),
])
def test_empty_names(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    one_error(run(*args), 2, message)
    assert list(tmp_path.iterdir()) == []


# -- modes, symlinks, read-only targets ---------------------------------------------

@pytest.mark.parametrize("mask,mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_new_files_get_0666_less_the_umask(tmp_path, mask, mode):
    with umask(mask):
        assert run("convert", "--to", "json", VILLAGE, "-o", tmp_path / "out.json").exit_code == 0
        assert run("render", VILLAGE, "-o", tmp_path / "board.svg").exit_code == 0
        assert run("render", VILLAGE, "--all", "--out-dir", tmp_path / "plies").exit_code == 0
    assert stat.S_IMODE(os.stat(tmp_path / "out.json").st_mode) == mode
    assert stat.S_IMODE(os.stat(tmp_path / "board.svg").st_mode) == mode
    assert {stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "plies").iterdir()} == {mode}
    assert stat.S_IMODE(os.stat(tmp_path / "plies").st_mode) == 0o777 & ~mask


def test_a_replaced_file_keeps_its_mode(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old\n")
    os.chmod(target, 0o604)
    with umask(0o077):
        assert run("convert", "--to", "json", VILLAGE, "-o", target).exit_code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o604
    assert target.read_bytes() == expected("convert", "--to", "json", VILLAGE)


def test_output_onto_a_symlink_writes_its_target(tmp_path):
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "out.pmn"
    real.write_text("old\n")
    os.chmod(real, 0o640)
    link = tmp_path / "link.pmn"
    link.symlink_to(os.path.join("real", "out.pmn"))
    assert run("convert", "--to", "pmn", TOURNAMENT, "-o", link).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == os.path.join("real", "out.pmn")
    assert real.read_bytes() == expected("convert", "--to", "pmn", TOURNAMENT)
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == [] and leftovers(tmp_path / "real") == []


def test_output_onto_a_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.svg"
    link.symlink_to("board.svg")
    assert run("render", VILLAGE, "-o", link).exit_code == 0
    assert link.is_symlink() and (tmp_path / "board.svg").read_bytes() == expected("render", VILLAGE)


def test_a_read_only_target_is_refused(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old\n")
    os.chmod(target, 0o444)
    one_error(run("convert", "--to", "json", VILLAGE, "-o", target), 2, f"{target}: cannot write: Permission denied")
    one_error(run("render", VILLAGE, "-o", target, "--format", "svg"), 2, f"{target}: cannot write: Permission denied")
    assert target.read_text() == "old\n" and stat.S_IMODE(target.stat().st_mode) == 0o444
    assert leftovers(tmp_path) == []


# -- devices, FIFOs and standard output are written in place -----------------------

def test_a_device_is_written_in_place(tmp_path):
    null = device(tmp_path / "null", 3)
    assert run("convert", "--to", "xml", VILLAGE, "-o", null).exit_code == 0
    assert run("render", VILLAGE, "-o", null).exit_code == 0
    assert stat.S_ISCHR(os.stat(null).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


def mancala(*args, **kwargs):
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "mancala_cli", *map(str, args)], stderr=subprocess.PIPE,
                          timeout=60, **kwargs)


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        done = mancala("convert", "--to", "pmn", TOURNAMENT, "-o", fifo)
        assert done.returncode == 0 and done.stderr == b""
        data = b""
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(reader, 1 << 16):
                data += chunk
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert data == expected("convert", "--to", "pmn", TOURNAMENT)


@pytest.mark.parametrize("name", ["/proc/self/fd/1", "/proc/thread-self/fd/1"])
def test_standard_output_by_name_is_written_in_place(tmp_path, name):
    if not os.path.exists(name):
        pytest.skip(f"no {name}")
    log = tmp_path / "log"
    log.write_bytes(b"earlier\n")
    link = tmp_path / "stdout"
    link.symlink_to(name)
    with open(log, "ab") as out:
        done = mancala("render", VILLAGE, "--format", "text", "-o", link, stdout=out)
    assert done.returncode == 0 and done.stderr == b""
    assert link.is_symlink()
    assert log.read_bytes() == b"earlier\n" + expected("render", VILLAGE, "--format", "text")


# -- failing writes: one line, exit 2, the old file kept ----------------------------

def test_a_full_device(tmp_path):
    full = device(tmp_path / "full", 7)
    for args in (("convert", "--to", "json", "--positions", VILLAGE), ("convert", "--to", "xml", VILLAGE),
                 ("render", VILLAGE)):
        one_error(run(*args, "-o", full), 2, f"{full}: cannot write: No space left on device")
    assert stat.S_ISCHR(os.stat(full).st_mode)


def test_a_full_disk_keeps_the_old_file(tmp_path, monkeypatch):
    import mancala_cli.files.output as inputs

    target = tmp_path / "out.data"  # (a name of no format: both --to values are written to it)
    target.write_text("old\n")

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(inputs, "_write", full)
    for to in ("json", "xml"):
        one_error(run("convert", "--to", to, VILLAGE, "-o", target), 2,
                  f"{target}: cannot write: No space left on device")
    assert target.read_text() == "old\n"
    assert leftovers(tmp_path) == []


def test_a_full_disk_during_render_all(tmp_path, monkeypatch):
    import mancala_cli.files.output as inputs

    plies = tmp_path / "plies"
    plies.mkdir()
    (plies / "ply-003.svg").write_text("old\n")
    (plies / "ply-030.svg").write_text("stale\n")
    real = inputs._write
    written = []

    def full(fd, data):
        if len(written) == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written.append(len(data))
        return real(fd, data)

    monkeypatch.setattr(inputs, "_write", full)
    one_error(run("render", VILLAGE, "--all", "--out-dir", plies), 2,
              f"{plies / 'ply-003.svg'}: cannot write: No space left on device")
    assert (plies / "ply-003.svg").read_text() == "old\n"
    assert (plies / "ply-030.svg").read_text() == "stale\n"  # nothing removed after a failure
    assert sorted(p.name for p in plies.iterdir()) == ["ply-000.svg", "ply-001.svg", "ply-002.svg",
                                                       "ply-003.svg", "ply-030.svg"]


def test_a_full_tmpfs(tmp_path):
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mount)],
                                           capture_output=True, timeout=10).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        source = tmp_path / "games.pmn"
        source.write_bytes(mancala("random", "--game", "kingulu", "-n", "20", "--seed", "3").stdout)
        target = mount / "out.json"
        target.write_text("old\n")
        one_error(run("convert", "--to", "json", "--positions", source, "-o", target), 2,
                  f"{target}: cannot write: No space left on device")
        assert target.read_text() == "old\n" and sorted(p.name for p in mount.iterdir()) == ["out.json"]
    finally:
        subprocess.run(["umount", str(mount)], timeout=10)


# -- --style ---------------------------------------------------------------------------

def test_style_that_is_not_utf8(tmp_path):
    css = tmp_path / "bad.css"
    css.write_bytes(b".count { font-family: \"Caf\xe9\" }\n")
    one_error(run("render", VILLAGE, "--style", css), 2,
              f"{css}: cannot read: bytes e9 at byte offset 26 are not valid UTF-8")


def test_style_that_is_a_directory_or_missing(tmp_path):
    one_error(run("render", VILLAGE, "--style", tmp_path), 2, f"{tmp_path}: cannot read: Is a directory")
    one_error(run("render", VILLAGE, "--style", tmp_path / "none.css"), 2,
              f"{tmp_path / 'none.css'}: cannot read: No such file or directory")


# -- render --all into a folder used before -------------------------------------------

def test_render_all_removes_stale_diagrams(tmp_path):
    plies = tmp_path / "plies"
    assert run("render", VILLAGE, "--all", "--out-dir", plies).exit_code == 0
    assert run("render", VILLAGE, "--all", "--format", "text", "--out-dir", plies).exit_code == 0
    (plies / "ply-1234.svg").write_text("from a long game\n")
    keep = ["notes.txt", "ply-1.svg", "ply-abc.svg", "ply-005.svg.bak", "ply-005.png", "xply-005.svg"]
    for name in keep:
        (plies / name).write_text("mine\n")
    (plies / "ply-020.svg.d").mkdir()
    short = tmp_path / "short.pmn"
    short.write_text(SHORT)
    assert run("render", short, "--all", "--out-dir", plies).exit_code == 0
    # (the earlier renders' diagrams go, in either format, with their list
    # .mancala-render; a file named like a diagram that no render wrote stays)
    assert sorted(p.name for p in plies.iterdir()) == sorted(
        [".mancala-render", "ply-000.svg", "ply-001.svg", "ply-002.svg", "ply-003.svg", "ply-020.svg.d",
         "ply-1234.svg"] + keep)
    for name in keep:
        assert (plies / name).read_text() == "mine\n"
    for k in range(4):
        assert (plies / f"ply-{k:03d}.svg").read_bytes() == expected("render", short, "--ply", k)


def test_render_all_never_removes_its_input(tmp_path):
    plies = tmp_path / "plies"
    assert run("render", VILLAGE, "--all", "--out-dir", plies).exit_code == 0
    source = plies / "ply-010.svg"
    source.write_text(SHORT)
    assert run("render", source, "--all", "--out-dir", plies).exit_code == 0
    assert source.read_text() == SHORT
    assert sorted(p.name for p in plies.iterdir()) == [".mancala-render", "ply-000.svg", "ply-001.svg",
                                                       "ply-002.svg", "ply-003.svg", "ply-010.svg"]


# -- an input written onto itself -------------------------------------------------------

def damaged_copy(tmp_path):
    source = tmp_path / "games.pmn"
    shutil.copy(DAMAGED, source)
    return source


@pytest.mark.parametrize("spelling", ["same", "symlink", "dots"])
def test_a_damaged_input_is_not_converted_onto_itself(tmp_path, spelling):
    source = damaged_copy(tmp_path)
    if spelling == "symlink":
        target = tmp_path / "link.pmn"
        target.symlink_to("games.pmn")
    elif spelling == "dots":
        (tmp_path / "sub").mkdir()
        target = tmp_path / "sub" / ".." / "games.pmn"
    else:
        target = source
    result = run("convert", "--to", "pmn", source, "-o", target)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[-1] == (f"mancala: error: {target}: is an input with errors; "
                         "not replaced (--force replaces it)")
    assert all(not line.startswith("mancala: error:") for line in lines[:-1])
    assert source.read_bytes() == DAMAGED.read_bytes()
    assert leftovers(tmp_path) == []


def test_force_converts_a_damaged_input_onto_itself(tmp_path):
    source = damaged_copy(tmp_path)
    want = run("convert", "--to", "pmn", DAMAGED).stdout_bytes
    result = run("convert", "--to", "pmn", "--force", source, "-o", source)
    assert result.exit_code == 1 and "mancala: error:" not in result.stderr
    assert source.read_bytes() == want


def test_a_valid_input_is_converted_onto_itself(tmp_path):
    source = tmp_path / "games.pmn"
    shutil.copy(TOURNAMENT, source)
    want = expected("convert", "--to", "pmn", "--coords", "numeric", TOURNAMENT)
    assert run("convert", "--to", "pmn", "--coords", "numeric", source, "-o", source).exit_code == 0
    assert source.read_bytes() == want


def test_render_is_not_written_onto_its_input(tmp_path):
    source = tmp_path / "game.pmn"
    shutil.copy(VILLAGE, source)
    link = tmp_path / "link.svg"
    link.symlink_to("game.pmn")
    for target in (source, link):
        one_error(run("render", source, "-o", target, "--format", "svg"), 2,
                  f"{target}: is the input file; not replaced (--force replaces it)")
    assert source.read_bytes() == VILLAGE.read_bytes()
    assert run("render", source, "--force", "-o", source, "--format", "svg").exit_code == 0
    assert source.read_bytes() == expected("render", VILLAGE)


def test_render_all_that_cannot_remove_a_stale_diagram(tmp_path, monkeypatch):
    plies = tmp_path / "plies"
    assert run("render", VILLAGE, "--all", "--out-dir", plies).exit_code == 0
    short = tmp_path / "short.pmn"
    short.write_text(SHORT)

    def refuse(path, *args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)

    monkeypatch.setattr(os, "unlink", refuse)
    one_error(run("render", short, "--all", "--out-dir", plies), 2,
              f"{plies / 'ply-004.svg'}: cannot remove: Permission denied")
    assert len(list(plies.iterdir())) == 24 + 1  # (the diagrams, and their list .mancala-render)
