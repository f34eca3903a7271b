"""Primitives shared by the estimators: labels and class centres (:mod:`.labels`),
neighbourhood graphs and Laplacians (:mod:`.graphs`), eigenproblems (:mod:`.linalg`),
checks of the training data (:mod:`.validation`), joblib sweeps with a progress bar
(:mod:`.parallel`), an order of the rows that depends on their values only (:mod:`.rows`),
exact fast predictions of a linear SVC (:mod:`.svm`) and of a random forest
(:mod:`.forest`), the cost of a call with its growth exponent (:mod:`.cost`), and NumPy's
order of summation in compiled code (:mod:`.numpy_order`)."""
