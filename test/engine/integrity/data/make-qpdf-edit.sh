#!/bin/sh
# Doctors fixtures/zenith/statement.pdf the way a hand edit with qpdf does: QDF form, a credit
# changed in the content stream with a text editor (sed here), fix-qdf, then qpdf to tidy it up.
# Output: zenith-qpdf-edit.pdf, and zenith-qdf.pdf (the QDF form itself, left as it is, as someone
# mid-edit would send it), beside this script (committed; CI does not need qpdf).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src="$here/../../../../fixtures/zenith/statement.pdf"
tmp=$(mktemp -d)
qpdf --qdf --object-streams=disable "$src" "$tmp/qdf.pdf"
# 159,844.75 (a transfer in) becomes 1,159,844.75, in place: same starting point, one more digit.
sed 's/(159,844\.75) Tj/(1,159,844.75) Tj/' "$tmp/qdf.pdf" > "$tmp/edited.pdf"
fix-qdf "$tmp/edited.pdf" > "$tmp/fixed.pdf"
qpdf "$tmp/fixed.pdf" "$here/zenith-qpdf-edit.pdf"
cp "$tmp/fixed.pdf" "$here/zenith-qdf.pdf"
rm -r "$tmp"
