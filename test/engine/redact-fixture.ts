/**
 * Builds statement PDFs in memory with personal data planted in every place a redactor can miss:
 * a letter head with the address block under the name, labelled header fields, narrations, text
 * split across TJ arrays with kerning, character and word spacing and horizontal scaling, the ' and
 * " operators, a 2-byte (Type0, Identity-H) font, a Form XObject nested in another, a rotated page,
 * marked-content /ActualText, an annotation, a bookmark, a page thumbnail, the document information
 * dictionary and XMP metadata.
 */
import { degrees, PDFDocument, PDFName, PDFString, StandardFonts, type PDFRef } from "pdf-lib";

export const HOLDER = "ADEBAYO OKONKWO";
export const ACCOUNT = "3087654321";
export const BVN = "22212345678";
export const PHONE = "08031234567";
export const EMAIL = "adebayo.okonkwo@example.com";
export const ADDRESS = ["12 Allen Avenue", "Ikeja, Lagos"];

/** Every rendering of the planted data that must not survive, in any spacing. */
export const PLANTED = [HOLDER, "Okonkwo Adebayo", ACCOUNT, "******4321", BVN, PHONE, EMAIL, ...ADDRESS];

/** Text that must survive untouched (amounts, dates, narrations without personal data). */
export const KEPT = ["POS PURCHASE SHOPRITE LEKKI", "12,500.50", "436,499.50", "SALARY MAY 2026", "Statement Period", "01/05/2026 - 31/05/2026", "Page 2 of 3", "CARD MAINTENANCE FEE"];

const esc = (s: string) => s.replace(/[\\()]/g, "\\$&");
const hex2 = (s: string) => "<" + [...s].map((c) => c.charCodeAt(0).toString(16).padStart(4, "0")).join("") + ">";

function pageOne(): string {
  const row = (y: number, cells: [string, string, string, string, string]) =>
    cells
      .map((c, i) => (c ? `BT /Hv 8 Tf 1 0 0 1 ${[50, 120, 360, 430, 500][i]} ${y} Tm (${esc(c)}) Tj ET` : ""))
      .join("\n");
  return [
    // Letter head: the name (inside marked content whose /ActualText repeats it, which poppler
    // prints instead of the glyphs), then the address block under it (second line drawn with ').
    `/Span <</ActualText (${HOLDER})>> BDC BT /Hv 11 Tf 1 0 0 1 50 790 Tm (${HOLDER}) Tj ET EMC`,
    `BT /Hv 9 Tf 50 776 Td 11 TL (${ADDRESS[0]}) Tj (${ADDRESS[1]}) ' ET`,
    // Labelled header fields; the account number split across a TJ array with kerning.
    `BT /Hv 9 Tf 50 720 Td (Account Name:) Tj 80 0 Td (${HOLDER}) Tj ET`,
    `BT /Hv 9 Tf 50 706 Td (Account Number:) Tj 80 0 Td [(308)-40(7654)120(321)] TJ ET`,
    `BT /Hv 9 Tf 50 692 Td (BVN:) Tj 80 0 Td 0.4 Tc [(2221) (2345678)] TJ 0 Tc ET`,
    `BT /Hv 9 Tf 50 678 Td (Phone:) Tj 80 0 Td (0803 123 4567) Tj ET`,
    `BT /Hv 9 Tf 50 664 Td (Email:) Tj 80 0 Td 90 Tz (${EMAIL}) Tj 100 Tz ET`,
    `BT /Hv 9 Tf 300 720 Td (Statement Period:) Tj 80 0 Td (01/05/2026 - 31/05/2026) Tj ET`,
    `BT /Hv 9 Tf 300 706 Td (Currency:) Tj 80 0 Td (NGN) Tj ET`,
    // The table.
    row(620, ["Date", "Narration", "Debit", "Credit", "Balance"]),
    row(604, ["01/05/2026", "Opening Balance", "", "", "100,000.00"]),
    // Name split in a narration, with word spacing and kerning inside the name.
    `BT /Hv 8 Tf 1 0 0 1 120 588 Tm 1.5 Tw [(TRANSFER FROM ADE)-30(BAYO OKON)(KWO)] TJ 0 Tw ET`,
    row(588, ["02/05/2026", "", "", "50,000.00", "150,000.00"]),
    row(572, ["03/05/2026", `AIRTIME ${PHONE}`, "1,000.00", "", "149,000.00"]),
    row(556, ["04/05/2026", "POS PURCHASE SHOPRITE LEKKI", "12,500.50", "", "136,499.50"]),
    // The " operator (word and char spacing set by the operator itself), surname first.
    `BT /Hv 8 Tf 120 550 Td 10 TL 0.5 0.1 (NIP/Okonkwo Adebayo/${ACCOUNT}) " ET`,
    row(540, ["05/05/2026", "", "", "0.00", "136,499.50"]),
    row(524, ["06/05/2026", "SALARY MAY 2026", "", "300,000.00", "436,499.50"]),
    // A form XObject placed by cm (it nests a second form).
    "q 1 0 0 1 50 60 cm /Fx1 Do Q",
  ].join("\n");
}

export interface Fixture {
  bytes: Uint8Array;
  /** Where the header's holder name is drawn on page 1, in poppler's top-left pixels at 72 dpi. */
  nameBox: { x: number; y: number; w: number; h: number };
}

export async function buildStatementPdf(): Promise<Fixture> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const ctx = doc.context;
  const helv = await doc.embedFont(StandardFonts.Helvetica);
  const fontRes = () => ctx.obj({ Font: { Hv: helv.ref } });

  // A Type0 font with 2-byte codes (CID = Unicode), a ToUnicode CMap and /W widths; not embedded.
  const toUnicode = ctx.register(
    ctx.flateStream(
      "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Test-UCS def 1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0020> <007E> <0020> endbfrange endcmap CMapName currentdict /CMap defineresource pop end end",
    ),
  );
  const descriptor = ctx.obj({ Type: "FontDescriptor", FontName: "TestSans", Flags: 32, FontBBox: [0, -200, 1000, 800], ItalicAngle: 0, Ascent: 800, Descent: -200, CapHeight: 700, StemV: 80 });
  const cidFont = ctx.obj({
    Type: "Font",
    Subtype: "CIDFontType2",
    BaseFont: "TestSans",
    CIDSystemInfo: { Registry: PDFString.of("Adobe"), Ordering: PDFString.of("Identity"), Supplement: 0 },
    FontDescriptor: descriptor,
    DW: 600,
    W: [32, [280], 48, 57, 560],
    CIDToGIDMap: "Identity",
  });
  const type0 = ctx.register(ctx.obj({ Type: "Font", Subtype: "Type0", BaseFont: "TestSans", Encoding: "Identity-H", DescendantFonts: [cidFont], ToUnicode: toUnicode }));

  // Nested forms: Fx1 draws a line and calls Fx2, which is shifted by its own /Matrix.
  const fx2 = ctx.register(
    ctx.stream(`BT /Hv 8 Tf 0 0 Td (Contact: ${EMAIL}) Tj ET`, { Type: "XObject", Subtype: "Form", BBox: [0, 0, 400, 20], Matrix: [1, 0, 0, 1, 0, -12], Resources: fontRes() }),
  );
  const fx1 = ctx.register(
    ctx.flateStream(`BT /Hv 8 Tf 0 0 Td (Prepared for ${HOLDER}, account ${ACCOUNT}) Tj ET /Fx2 Do`, {
      Type: "XObject",
      Subtype: "Form",
      BBox: [0, -20, 400, 20],
      Resources: { Font: { Hv: helv.ref }, XObject: { Fx2: fx2 } },
    }),
  );

  const p1 = doc.addPage([595, 842]);
  p1.node.set(PDFName.of("Resources"), ctx.obj({ Font: { Hv: helv.ref }, XObject: { Fx1: fx1 } }));
  p1.node.set(PDFName.of("Contents"), ctx.obj([ctx.register(ctx.flateStream(pageOne()))]));

  // A thumbnail: a picture of the page as it was (1x1 grey here).
  p1.node.set(PDFName.of("Thumb"), ctx.register(ctx.stream(Uint8Array.of(128), { Width: 1, Height: 1, ColorSpace: "DeviceGray", BitsPerComponent: 8 })));

  // An annotation whose text and appearance carry the name, and a link without personal data.
  const ap = ctx.register(ctx.stream(`BT /Hv 9 Tf 2 4 Td (Reviewed for ${HOLDER}) Tj ET`, { Type: "XObject", Subtype: "Form", BBox: [0, 0, 200, 16], Resources: fontRes() }));
  const note: PDFRef = ctx.register(
    ctx.obj({ Type: "Annot", Subtype: "FreeText", Rect: [330, 780, 530, 796], Contents: PDFString.of(`Reviewed for ${HOLDER}`), DA: PDFString.of("/Hv 9 Tf 0 g"), AP: { N: ap } }),
  );
  const link: PDFRef = ctx.register(ctx.obj({ Type: "Annot", Subtype: "Link", Rect: [50, 30, 150, 40], Border: [0, 0, 0], A: { S: "URI", URI: PDFString.of("https://bank.example/help") } }));
  p1.node.set(PDFName.of("Annots"), ctx.obj([note, link]));

  // Page 2: Letter size, 2-byte font, content split over two streams (one not compressed).
  const p2 = doc.addPage([612, 792]);
  p2.node.set(PDFName.of("Resources"), ctx.obj({ Font: { Hv: helv.ref, T0: type0 } }));
  p2.node.set(
    PDFName.of("Contents"),
    ctx.obj([
      ctx.register(ctx.stream(`BT /T0 10 Tf 1 0 0 1 50 700 Tm ${hex2("TRANSFER TO ")}Tj [${hex2("ADEBAYO")} -200 ${hex2(" OKONKWO")}] TJ ET`)),
      ctx.register(
        ctx.flateStream(
          [
            `BT /T0 10 Tf 1 0 0 1 50 680 Tm ${hex2("CARD MAINTENANCE FEE")} Tj ET`,
            `BT /Hv 9 Tf 1 0 0 1 50 660 Tm (Linked account ******4321) Tj ET`,
            `BT /Hv 9 Tf 1 0 0 1 50 640 Tm (Page 2 of 3) Tj ET`,
          ].join("\n"),
        ),
      ),
    ]),
  );

  // Page 3: rotated; text drawn under a scaling cm.
  const p3 = doc.addPage([842, 595]);
  p3.setRotation(degrees(90));
  p3.node.set(PDFName.of("Resources"), ctx.obj({ Font: { Hv: helv.ref } }));
  p3.node.set(PDFName.of("Contents"), ctx.obj([ctx.register(ctx.flateStream(`q 1.5 0 0 1.5 40 300 cm BT /Hv 8 Tf 0 0 Td (Account holder ${HOLDER} - BVN ${BVN}) Tj ET Q`))]));

  // An outline (bookmark) titled with the name.
  const outlines = ctx.nextRef();
  const item = ctx.register(ctx.obj({ Title: PDFString.of(`Statement of ${HOLDER}`), Parent: outlines, Dest: [p1.ref, "Fit"] }));
  ctx.assign(outlines, ctx.obj({ Type: "Outlines", First: item, Last: item, Count: 1 }));
  doc.catalog.set(PDFName.of("Outlines"), outlines);

  doc.setTitle(`Statement for ${HOLDER}`);
  doc.setAuthor(HOLDER);
  doc.setSubject(`Account ${ACCOUNT}`);
  doc.setKeywords([HOLDER, ACCOUNT]);
  doc.setCreator("Core Banking");
  doc.setProducer("Statement Printer");
  const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${HOLDER}</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  doc.catalog.set(PDFName.of("Metadata"), ctx.register(ctx.stream(xmp, { Type: "Metadata", Subtype: "XML" })));

  const bytes = await doc.save({ useObjectStreams: true });
  // Poppler's pixel rows count from the top: the name's baseline is at y = 720 (font 9).
  return { bytes, nameBox: { x: 131, y: 842 - 720 - 6, w: 60, h: 6 } };
}

/** A statement without any personal data on it. */
export async function buildCleanPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const helv = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText("Statement Period: 01/05/2026 - 31/05/2026", { x: 50, y: 780, size: 9, font: helv });
  page.drawText("02/05/2026   POS PURCHASE SHOPRITE   12,500.50   87,499.50", { x: 50, y: 760, size: 9, font: helv });
  return doc.save();
}
