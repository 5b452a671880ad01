export interface Letter {
  /** BCP 47 tag, so a browser picks fitting CJK fonts. */
  language: string;
  title: string;
  /** A paragraph may hold line breaks, e.g. a signature. */
  paragraphs: string[];
  footer?: string;
  image?: { contentId: string; alt: string; width: number; height: number };
}

export function letterText(letter: Letter): string {
  const parts = [...letter.paragraphs];
  if (letter.footer) parts.push(`--\n${letter.footer}`);
  return `${parts.join('\n\n')}\n`;
}

export function letterHtml(letter: Letter): string {
  const lines = [
    '<!DOCTYPE html>',
    `<html lang="${letter.language}">`,
    `<head><meta charset="utf-8"><title>${escapeHtml(letter.title)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#f4f5f7;font-family:'Apple SD Gothic Neo','Malgun Gothic','Hiragino Sans',Arial,sans-serif;color:#1f2933">`,
    '<div style="max-width:640px;margin:0 auto;padding:32px;background:#ffffff;border-radius:8px">',
  ];
  const { image } = letter;
  if (image) {
    lines.push(
      `<img src="cid:${image.contentId}" alt="${escapeHtml(image.alt)}" width="${image.width}" height="${image.height}" style="display:block;margin:0 0 24px;border-radius:6px">`,
    );
  }
  lines.push(`<h1 style="margin:0 0 20px;font-size:20px">${escapeHtml(letter.title)}</h1>`);
  for (const paragraph of letter.paragraphs) {
    lines.push(`<p style="margin:0 0 14px;line-height:1.6">${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`);
  }
  if (letter.footer) {
    lines.push(`<p style="margin:24px 0 0;font-size:12px;color:#7b8794">${escapeHtml(letter.footer)}</p>`);
  }
  lines.push('</div>', '</body>', '</html>');
  return `${lines.join('\n')}\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
