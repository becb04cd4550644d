import { instanceName } from '../../api/page-config';

/** The instance name with a lettermark (text only: no logo image is fetched). */
export function Brand({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const initial = Array.from(instanceName)[0]?.toUpperCase() ?? 'F';
  return (
    <div className={`brand brand--${size}`}>
      <span className="brand__mark" aria-hidden="true">
        {initial}
      </span>
      <span className="brand__name">{instanceName}</span>
    </div>
  );
}
