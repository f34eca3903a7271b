"""Primitives shared by the estimators: labels and class centres (:mod:`.labels`),
neighbourhood graphs and Laplacians (:mod:`.graphs`), eigenproblems (:mod:`.linalg`),
checks of the training data (:mod:`.validation`), joblib sweeps with a progress bar
(:mod:`.parallel`) and an order of the rows that depends on their values only (:mod:`.rows`)."""
