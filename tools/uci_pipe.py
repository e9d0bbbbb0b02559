"""UCI over a pipe, for the tools that drive the engine by hand
(stop_latency.py, go_stop_cycles.py, idle_memory.py); they import it from
this folder."""
import subprocess


def start(engine):
    """Starts `engine` and waits for its `uciok`."""
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    send(proc, "uci")
    read_until(proc, "uciok")
    return proc


def send(proc, cmd):
    proc.stdin.write(cmd + "\n")
    proc.stdin.flush()


def read_until(proc, prefix):
    """The first line that starts with `prefix`; the ones before are dropped."""
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("engine exited")
        if line.startswith(prefix):
            return line


def start_with_threads(engine, threads):
    """An engine started with `Threads` set, ready for commands."""
    proc = start(engine)
    send(proc, f"setoption name Threads value {threads}")
    send(proc, "isready")
    read_until(proc, "readyok")
    return proc


def proc_status(pid):
    """(Threads, VmRSS in kB) of a running process, from /proc/PID/status."""
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.split()
    return int(fields["Threads"][0]), int(fields["VmRSS"][0])
