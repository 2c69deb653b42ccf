import { describe, expect, it } from "vitest";
import { attachmentDisposition, FILE_NAME_MAX, safeFileName } from "./attachments";
import { formatFileSize } from "./attachments";

describe("safeFileName", () => {
  it("keeps the name without its path, controls or reserved characters", () => {
    expect(safeFileName("../../etc/passwd", "x")).toBe("passwd");
    expect(safeFileName("C:\\Users\\jeanne\\Bon de commande.pdf", "x")).toBe("Bon de commande.pdf");
    expect(safeFileName("fac\u0000ture\r\n.pdf", "x")).toBe("facture.pdf");
    // A right-to-left override would show `fdp.exe` as `exe.pdf`.
    expect(safeFileName("facture\u202Efdp.exe", "x")).toBe("facturefdp.exe");
    expect(safeFileName('a<b>:"c|?*.txt', "x")).toBe("a_b___c___.txt");
    expect(safeFileName("..", "piece-jointe")).toBe("piece-jointe");
    expect(safeFileName(null, "piece-jointe")).toBe("piece-jointe");
  });

  it("cuts a long name to the limit and keeps its extension", () => {
    const name = safeFileName(`${"é".repeat(400)}.xlsx`, "x");
    expect(Array.from(name)).toHaveLength(FILE_NAME_MAX);
    expect(name.endsWith("é.xlsx")).toBe(true);
  });
});

describe("attachmentDisposition", () => {
  it("gives an ASCII fallback and the UTF-8 name (RFC 5987)", () => {
    expect(attachmentDisposition("Devis été (v2).pdf")).toBe(
      `attachment; filename="Devis ete (v2).pdf"; filename*=UTF-8''Devis%20%C3%A9t%C3%A9%20%28v2%29.pdf`,
    );
    expect(attachmentDisposition('a"b\\c%d€.txt')).toBe(
      `attachment; filename="a_b_c_d_.txt"; filename*=UTF-8''a%22b%5Cc%25d%E2%82%AC.txt`,
    );
  });
});

describe("formatFileSize", () => {
  it("writes sizes the French way", () => {
    const plain = (value: string) => value.replace(/\s/g, " ");
    expect(plain(formatFileSize(512))).toBe("512 o");
    expect(plain(formatFileSize(12_595))).toBe("12,3 ko");
    expect(plain(formatFileSize(10 * 1024 * 1024))).toBe("10 Mo");
  });
});
