#!/bin/sh
# expect-exit.sh CODE COMMAND...: runs COMMAND (its output passes through) and
# fails unless it exits with status CODE. lit's shell has no $?.
want=$1
shift
"$@"
got=$?
if [ "$got" -ne "$want" ]; then
    echo "expect-exit: '$*' exited with $got, expected $want" >&2
    exit 1
fi
exit 0
