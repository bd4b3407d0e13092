"""The designer's lab: simulations of many encounters, and the policies that play them."""
