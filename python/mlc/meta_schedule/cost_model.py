"""Cost models: which candidates of a search round are worth measuring.

Compiling and timing a candidate costs about a second here; scoring one
costs microseconds. As in TVM's MetaSchedule, each round of `tune_tir`
draws a pool of candidate decisions several times larger than the round
(mutations of the best measured traces and random points), scores the pool
with a cost model, and measures the best-scored candidates plus a few picked
at random (epsilon-greedy, so a wrong model cannot starve the search).

A candidate is scored from its decisions alone, before any schedule is
built (`featurize`): per sampling instruction, log2 of each perfect-tile
factor, log2 of the chosen categorical value, the compute location; a space
may add derived features (`DefaultScheduleKnobs.features`: accumulator
registers of the register tile and how far they exceed the register file).

- `GBDTModel` (the default): gradient-boosted regression trees in numpy,
  fitted to -log(run time) of the task's measured candidates (failed ones
  score below the worst success). TVM uses XGBoost over per-store
  features; with one model per task, decisions are features enough, and no
  dependency beyond numpy is needed.
- Until `min_samples` candidates are measured, a model has nothing to learn
  from: the pool is ranked by the space's analytic prior
  (`DefaultScheduleKnobs.prior`: register tiles that spill rank last), or
  kept in its order when the space has none.
- `RandomModel` scores at random: the search without a cost model.
"""

import math

__all__ = ["CostModel", "GBDTModel", "RandomModel", "featurize", "make_cost_model"]


def featurize(samples, decisions, extra=None):
    """A candidate's feature row: numbers from each sampling instruction's
    decision (`samples` gives their kinds and candidates), then
    `extra(decisions)` (a space's derived features) when given."""
    row = []
    for sample, decision in zip(samples, decisions):
        if sample.kind == "sample_perfect_tile":
            row.extend(math.log2(max(int(f), 1)) for f in decision)
        elif sample.kind == "sample_categorical":
            value = sample.candidates[int(decision)]
            row.append(math.log2(value) if value > 0 else -1.0)
        else:  # sample_compute_location
            row.append(float(decision))
    if extra is not None:
        row.extend(extra(decisions))
    return row


class CostModel:
    """Scores candidates (higher: expected faster) from feature rows and
    learns from measured ones (once `min_samples` of them succeeded)."""

    def __init__(self, min_samples=8):
        self.min_samples = min_samples
        self.rows, self.secs = [], []

    def update(self, rows, secs):
        """Measured candidates: feature rows and mean seconds (None or a
        huge value for a failed one)."""
        self.rows.extend(list(r) for r in rows)
        self.secs.extend(secs)
        self._fit()

    def predict(self, rows, priors=None):
        """Scores of `rows`; before the model has learned, `priors` (the
        space's analytic scores of the same candidates) or zeros."""
        if self._trained():
            return self._predict(rows)
        return list(priors) if priors is not None else [0.0] * len(rows)

    def _trained(self):
        return False

    def _fit(self):
        pass

    def _predict(self, rows):
        raise NotImplementedError


class RandomModel(CostModel):
    """No cost model: every candidate of the pool scores alike, so the
    round is the pool's first candidates."""

    def predict(self, rows, priors=None):
        return [0.0] * len(rows)


class GBDTModel(CostModel):
    """Gradient-boosted regression trees (least squares, depth
    `max_depth`, shrinkage `learning_rate`, `rounds` trees) on
    -log(seconds); failed candidates get the worst success's target minus
    one."""

    def __init__(self, min_samples=8, rounds=60, max_depth=3,
                 learning_rate=0.3, min_leaf=2):
        super().__init__(min_samples)
        self.rounds = rounds
        self.max_depth = max_depth
        self.learning_rate = learning_rate
        self.min_leaf = min_leaf
        self.trees = []
        self.base = 0.0
        self.width = 0

    def _targets(self):
        good = [-math.log(s) for s in self.secs if s is not None and s < 1e9]
        if not good:
            return None
        worst = min(good) - 1.0
        return [-math.log(s) if s is not None and s < 1e9 else worst
                for s in self.secs]

    def _matrix(self, rows):
        import numpy as np
        x = np.zeros((len(rows), self.width))
        for i, row in enumerate(rows):
            n = min(len(row), self.width)
            x[i, :n] = row[:n]
        return x

    def _trained(self):
        return bool(self.trees)

    def _fit(self):
        import numpy as np
        targets = self._targets()
        successes = sum(1 for s in self.secs if s is not None and s < 1e9)
        if targets is None or successes < self.min_samples:
            self.trees = []
            return
        self.width = max(len(r) for r in self.rows)
        x = self._matrix(self.rows)
        y = np.asarray(targets, dtype=float)
        self.base = float(y.mean())
        residual = y - self.base
        self.trees = []
        for _ in range(self.rounds):
            tree = self._grow(x, residual, np.arange(len(y)), 0)
            step = self.learning_rate * _evaluate(tree, x)
            residual = residual - step
            self.trees.append(tree)
            if float(np.abs(residual).max()) < 1e-9:
                break

    def _grow(self, x, residual, index, depth):
        """A tree as nested tuples: (feature, threshold, left, right) or a
        leaf value; the split that most reduces the squared error."""
        import numpy as np
        values = residual[index]
        if depth >= self.max_depth or len(index) < 2 * self.min_leaf:
            return float(values.mean())
        best = None
        total, count = values.sum(), len(values)
        for feature in range(x.shape[1]):
            column = x[index, feature]
            order = np.argsort(column, kind="stable")
            sorted_x, sorted_r = column[order], values[order]
            prefix = np.cumsum(sorted_r)
            for i in range(self.min_leaf, count - self.min_leaf + 1):
                if sorted_x[i - 1] == sorted_x[i]:
                    continue  # no threshold between equal values
                left_sum = prefix[i - 1]
                gain = left_sum ** 2 / i + (total - left_sum) ** 2 / (count - i)
                if best is None or gain > best[0]:
                    best = (gain, feature, (sorted_x[i - 1] + sorted_x[i]) / 2)
        if best is None or best[0] <= total ** 2 / count + 1e-12:
            return float(values.mean())
        _, feature, threshold = best
        mask = x[index, feature] <= threshold
        return (feature, threshold,
                self._grow(x, residual, index[mask], depth + 1),
                self._grow(x, residual, index[~mask], depth + 1))

    def _predict(self, rows):
        x = self._matrix(rows)
        score = self.base
        for tree in self.trees:
            score = score + self.learning_rate * _evaluate(tree, x)
        return [float(s) for s in score]


def _evaluate(tree, x):
    import numpy as np
    if not isinstance(tree, tuple):
        return np.full(x.shape[0], tree)
    feature, threshold, left, right = tree
    mask = x[:, feature] <= threshold
    out = np.empty(x.shape[0])
    if mask.any():
        out[mask] = _evaluate(left, x[mask])
    if (~mask).any():
        out[~mask] = _evaluate(right, x[~mask])
    return out


def make_cost_model(cost_model):
    """A CostModel for tune_tir's `cost_model` argument: "gbdt" (default),
    "random", or a CostModel instance."""
    if cost_model is None or cost_model == "gbdt":
        return GBDTModel()
    if cost_model == "random":
        return RandomModel()
    if isinstance(cost_model, CostModel):
        return cost_model
    raise ValueError('cost_model must be "gbdt", "random" or a CostModel, got %r'
                     % (cost_model,))
