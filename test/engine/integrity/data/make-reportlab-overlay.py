#!/usr/bin/python3
"""Doctors fixtures/uba/statement.pdf the way a ReportLab overlay does: a page drawn with ReportLab
(a white box over one balance and a new balance on it) stamped onto page 1 with `qpdf --overlay`.
Output: uba-reportlab-overlay.pdf beside this script (committed; CI needs neither tool)."""
import os, subprocess, sys, tempfile
from reportlab.pdfgen import canvas

here = os.path.dirname(os.path.abspath(__file__))
src = os.path.join(here, "../../../../fixtures/uba/statement.pdf")
# Where the figure sits (pdftotext -bbox of the source): right edge and baseline in PDF points.
x_right, baseline, width, size = float(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
page_w, page_h = float(sys.argv[5]), float(sys.argv[6])
text = sys.argv[7]
with tempfile.TemporaryDirectory() as tmp:
    overlay = os.path.join(tmp, "overlay.pdf")
    c = canvas.Canvas(overlay, pagesize=(page_w, page_h))
    c.setFillColorRGB(1, 1, 1)
    c.rect(x_right - width - 2, baseline - 3, width + 4, size + 5, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Helvetica", size)
    c.drawRightString(x_right, baseline, text)
    c.save()
    subprocess.run(["qpdf", src, "--overlay", overlay, "--to=1", "--", os.path.join(here, "uba-reportlab-overlay.pdf")], check=True)
