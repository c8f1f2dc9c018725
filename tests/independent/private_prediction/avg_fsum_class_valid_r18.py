"""averaged_learner_corrected, valid variant: the mean of the block predictions
computed with math.fsum (correctly rounded sum) divided by the number of blocks read
from the data, as a callable object with an extra keyword."""
import math


class Averager:
    def __init__(self, name="A'"):
        self.name = name

    def __call__(self, data, *, rng=None, gamma=None, n=None, r=None, log=False, **unused):
        vals = [float(v) for v in data]
        out = math.fsum(vals) / len(vals)
        if log:
            print(self.name, out)
        return out


average = Averager()
