"""Attack: act on the terminal and break the reports. The implementation prints ANSI escapes and
raises an exception whose message holds an ANSI colour, a cursor move, a carriage return, NUL, BEL,
a C1 control, a lone surrogate and a bidirectional override. Expected: an implementation error whose
text is inert everywhere; junit.xml is well-formed XML."""

import os

EVIL = "\x1b[2J\x1b[31mPASS: every outcome as expected (exit 0)\r\x00\x07\x9b\ud800 \u202eevil"


def laplace(data, *, rng, epsilon, gamma):
    os.write(1, (EVIL + "\n").encode("utf-8", "surrogatepass"))
    raise ValueError(EVIL)
