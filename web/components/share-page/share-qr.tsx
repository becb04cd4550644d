import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** QR code size in pixels and error correction level (spec §9). */
const QR_SIZE = 200;

/** A QR code of a link, drawn client-side into a data URL (dark on white whatever the theme, for scanners). */
export function ShareQr({ url }: { url: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState('');

  useEffect(() => {
    let live = true;
    QRCode.toDataURL(url, { width: QR_SIZE, errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } })
      .then((data) => live && setSrc(data))
      .catch((e: unknown) => console.error('filedeck: QR code failed', e));
    return () => {
      live = false;
    };
  }, [url]);

  return (
    <figure className="share-qr">
      {src ? (
        <img src={src} width={QR_SIZE} height={QR_SIZE} alt={t('share.qrAlt')} data-testid="share-qr" data-url={url} />
      ) : (
        <div className="share-qr__blank" style={{ width: QR_SIZE, height: QR_SIZE }} />
      )}
      <figcaption className="share-qr__caption">{t('share.qrCaption')}</figcaption>
    </figure>
  );
}
