"""check_long_line.py FILE OFFSET: reads tessc's diagnostics on stdin and
checks each echoed source line against FILE: it is at most a window of the
line (not the whole of it), every byte shown is the file's byte at that
place (or '?' for one that would garble a terminal), and the caret stands
under byte OFFSET (0-based, on line 1) when that byte is in the window.
Prints one summary line."""
import sys

source = open(sys.argv[1], "rb").read().split(b"\n")[0]
offset = int(sys.argv[2])
lines = sys.stdin.buffer.read().split(b"\n")
windows = carets = 0
for i, line in enumerate(lines):
    if not line.startswith(b"    ") or i + 1 >= len(lines) or b"^" not in lines[i + 1]:
        continue
    shown, caret = line[4:], lines[i + 1][4:].index(b"^")
    lead = 3 if shown.startswith(b"...") else 0
    body = shown[lead:-3] if shown.endswith(b"...") else shown[lead:]
    assert len(body) <= 200, "window of %d bytes" % len(body)
    windows += 1
    # where the window starts in the line: the header's column tells it
    header = lines[i - 1].split(b":")
    col = int(header[2]) - 1
    start = col - (caret - lead)
    expect = bytes(c if c == 9 or (32 <= c != 127) else ord("?") for c in source[start:start + len(body)])
    assert body == expect, "window differs from the source at byte %d" % start
    if col == offset:
        assert source[start + caret - lead] == source[offset]
        carets += 1
print("%d windows checked, %d carets at byte %d" % (windows, carets, offset))
