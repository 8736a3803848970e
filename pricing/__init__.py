"""The pricing module: catalog of GPU time and the rules that turn it into rate cards."""
