const MB = 1024 * 1024;

/** Quotas are typed in megabytes; empty means the deployment's default. */
export function quotaFromField(text: string): number | null | 'invalid' {
  if (text.trim() === '') return null;
  const megabytes = Number(text);
  return Number.isFinite(megabytes) && megabytes > 0 ? Math.round(megabytes * MB) : 'invalid';
}

export const quotaToField = (bytes: number, custom: boolean) => (custom ? String(Math.round(bytes / MB)) : '');
