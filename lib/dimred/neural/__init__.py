"""Neural-network dimensionality reduction: the AwA2 survey's autoencoder (:mod:`.autoencoder`)."""

from .autoencoder import Autoencoder, learning_rate_schedule

__all__ = ["Autoencoder", "learning_rate_schedule"]
