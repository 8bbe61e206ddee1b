# title: Good at: fitting a model (statsmodels), the last value shown
# A regression as a data scientist writes it: statsmodels and its
# formulas, on data made in the program. The last line is an expression,
# as in a notebook: its value shows under the run as Out:.
# (statsmodels is part of the default stack; `sandpit doctor` lists it.
# A package that is missing cannot be installed by a run: the machine's
# owner adds it, see the user guide.)
import numpy as np
import pandas as pd
import statsmodels.formula.api as smf

rng = np.random.default_rng(29)
n = 200
df = pd.DataFrame({"hours": rng.uniform(0, 10, n),
                   "sleep": rng.uniform(4, 9, n)})
df["score"] = 40 + 4.5 * df.hours + 2.0 * df.sleep + rng.normal(0, 5, n)

fit = smf.ols("score ~ hours + sleep", data=df).fit()
print(f"R squared: {fit.rsquared:.3f} on {int(fit.nobs)} students")
print("each extra hour of study adds about "
      f"{fit.params['hours']:.2f} points")
fit.params.round(3)
