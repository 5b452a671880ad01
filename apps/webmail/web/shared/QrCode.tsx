import { create } from 'qrcode';
import { useMemo } from 'react';

const QUIET_ZONE = 4;

/** A QR code drawn in the page as SVG: the text (a secret) never leaves the browser to become a picture. */
export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { path, extent } = useMemo(() => {
    const { modules } = create(text, { errorCorrectionLevel: 'M' });
    let drawn = '';
    for (let row = 0; row < modules.size; row++) {
      for (let column = 0; column < modules.size; column++) {
        if (modules.get(row, column)) drawn += `M${column + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
      }
    }
    return { path: drawn, extent: modules.size + 2 * QUIET_ZONE };
  }, [text]);
  return (
    <svg className="qr-code" role="img" aria-label={label} viewBox={`0 0 ${extent} ${extent}`} width={size} height={size} shapeRendering="crispEdges">
      <rect width={extent} height={extent} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
