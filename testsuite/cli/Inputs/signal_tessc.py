"""signal_tessc.py SIGNAL DIR COMMAND...: runs COMMAND (a tessc whose $PTXAS
is a stand-in that writes its pid into DIR/pids/ and sleeps), waits until
a stand-in runs, sends SIGNAL to tessc alone (not to its process group, as
a terminal would), and prints how tessc ended, how many temporary
directories are left in DIR/tmp (its $TMPDIR) and how many stand-ins still
run."""
import os
import signal
import subprocess
import sys
import time

sig = getattr(signal, sys.argv[1])
top = sys.argv[2]
pids_dir = os.path.join(top, "pids")


def defaults():
    # the signals as a foreground job has them, whatever the test runner's
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


env = dict(os.environ, TMPDIR=os.path.join(top, "tmp"))
child = subprocess.Popen(sys.argv[3:], env=env, preexec_fn=defaults, stderr=subprocess.DEVNULL)
deadline = time.time() + 60
while not os.listdir(pids_dir) and time.time() < deadline and child.poll() is None:
    time.sleep(0.05)
time.sleep(0.2)
child.send_signal(sig)
status = child.wait(timeout=60)
how = "killed by %s" % signal.Signals(-status).name if status < 0 else "exit %d" % status
left = os.listdir(os.path.join(top, "tmp"))
alive = 0
for name in os.listdir(pids_dir):
    pid = int(open(os.path.join(pids_dir, name)).read())
    for _ in range(50):   # a killed process is gone once its parent reaped it
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        alive += 1
        os.kill(pid, signal.SIGKILL)
print("%s, %d temporary directories left, %d of %d ptxas running" % (how, len(left), alive,
                                                                     len(os.listdir(pids_dir))))
