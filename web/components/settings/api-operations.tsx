import { useTranslation } from 'react-i18next';
import type { ApiDocument, ApiOperation } from '../../api/openapi';

interface Row {
  method: string;
  path: string;
  op: ApiOperation;
}

/** Operations of the document grouped by tag, filtered by words in method, path or summary. */
function group(doc: ApiDocument, filter: string): [string, Row[]][] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const tags = new Map<string, Row[]>();
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops)) {
      const text = `${method} ${path} ${op.summary}`.toLowerCase();
      if (!words.every((w) => text.includes(w))) continue;
      const tag = op.tags?.[0] ?? 'other';
      if (!tags.has(tag)) tags.set(tag, []);
      tags.get(tag)!.push({ method: op['x-websocket'] ? 'ws' : method, path, op });
    }
  return [...tags.entries()];
}

/** The API's operations: method, path, summary, who may call it, and its parameters on demand. */
export function ApiOperations({ doc, filter }: { doc: ApiDocument; filter: string }) {
  const { t } = useTranslation();
  const groups = group(doc, filter);
  if (!groups.length) return <p className="settings-empty" data-testid="api-empty">{t('settings.api.empty')}</p>;
  return (
    <div className="api-ops" data-testid="api-operations">
      {groups.map(([tag, rows]) => (
        <section key={tag} className="api-ops__group">
          <h3 className="api-ops__tag">{tag}</h3>
          <ul className="api-ops__list">
            {rows.map(({ method, path, op }) => (
              <li key={`${method} ${path}`} className="api-op" data-testid="api-operation">
                <details>
                  <summary className="api-op__head">
                    <span className={`api-op__method api-op__method--${method}`}>{method.toUpperCase()}</span>
                    <code className="api-op__path" dir="ltr">{path}</code>
                    <span className="api-op__summary">{op.summary}</span>
                    <span className="api-op__auth">{t(`settings.api.auth.${op['x-auth'] ?? 'user'}`)}</span>
                  </summary>
                  <div className="api-op__body">
                    {op.description && <p>{op.description}</p>}
                    {op.parameters?.length ? (
                      <table className="api-op__params">
                        <caption>{t('settings.api.parameters')}</caption>
                        <tbody>
                          {op.parameters.map((p) => (
                            <tr key={`${p.in} ${p.name}`}>
                              <th scope="row" dir="ltr">
                                <code>{p.name}</code>
                              </th>
                              <td>{t(`settings.api.in.${p.in}`)}</td>
                              <td>{p.description ?? ''}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    ) : (
                      <p className="api-op__none">{t('settings.api.noParameters')}</p>
                    )}
                    <p className="api-op__responses" dir="ltr">
                      {Object.entries(op.responses).map(([status, r]) => (
                        <span key={status} title={r.description}>
                          {status}{' '}
                        </span>
                      ))}
                    </p>
                  </div>
                </details>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
