"""Rendering: the drawing model, the PDF and SVG painters, imposition, marks and fonts."""
