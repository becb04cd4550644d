import { useEffect, useState } from 'react';

/**
 * A QR code of any text, drawn client-side (dark on white whatever the theme, so phone cameras read it). The QR
 * library is loaded when first needed: the login page is in the first-load script and rarely shows one.
 */
export function QrImage({ text, alt, size = 180, testId }: { text: string; alt: string; size?: number; testId?: string }) {
  const [src, setSrc] = useState('');

  useEffect(() => {
    let live = true;
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toDataURL(text, { width: size, errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } }))
      .then((data) => live && setSrc(data))
      .catch((e: unknown) => console.error('filedeck: QR code failed', e));
    return () => {
      live = false;
    };
  }, [text, size]);

  return src ? (
    <img className="qr-image" src={src} width={size} height={size} alt={alt} data-testid={testId} />
  ) : (
    <div className="qr-image qr-image--blank" style={{ width: size, height: size }} />
  );
}
