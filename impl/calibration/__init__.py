"""The calibration corpus: textbook mechanisms (Laplace, Gaussian, exponential, randomized response, report noisy max) and Lyu, Su and Li's sparse-vector variants, with their broken variants."""
