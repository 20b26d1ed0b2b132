# eurlex_docs.awk -- builds EUR-Lex-like XLIFF documents from tagged lines
# of the markup-tags dev set (one Okapi paragraph per line): every line
# with a lone <bx/> or <ex/> (its partner on another line) and every
# EVERY-th other line, dealt in turn to DOCS documents named
# DIR/doc-NN.xlf. Each document has two <file> elements whose unit ids
# both start at 1, as Okapi writes one <file> per input file.
# Usage: awk -v DOCS=12 -v EVERY=6 -v DIR=out -f eurlex_docs.awk dev-eurlex.en
BEGIN { n = 0 }
/<bx |<ex / || (NR % EVERY) == 0 { line[n++] = $0 }
END {
  for (d = 0; d < DOCS; d++) {
    path = sprintf("%s/doc-%02d.xlf", DIR, d + 1)
    m = 0
    for (i = d; i < n; i += DOCS)
      mine[m++] = line[i]
    printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" \
           "<xliff version=\"1.2\" " \
           "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n" > path
    half = int((m + 1) / 2)
    for (k = 0; k < m; k++) {
      if (k == 0 || k == half) {
        if (k == half)
          printf "</body>\n</file>\n" > path
        printf "<file original=\"act-%02d-part%d.docx\" " \
               "source-language=\"en\" target-language=\"es\" " \
               "datatype=\"x-undefined\">\n<body>\n", d + 1, \
               k == 0 ? 1 : 2 > path
      }
      id = k < half ? k + 1 : k - half + 1
      printf "<trans-unit id=\"%d\"><source>%s</source></trans-unit>\n", \
             id, mine[k] > path
    }
    printf "</body>\n</file>\n</xliff>\n" > path
    close(path)
  }
}
