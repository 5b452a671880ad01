import { useTranslation } from 'react-i18next';
import { formatSize } from '../shared/format';
import { Icon } from '../shared/Icon';

interface Props {
  files: File[];
  error?: string;
  onChange(files: File[]): void;
}

export function AttachmentPicker({ files, error, onChange }: Props) {
  const { t } = useTranslation();
  const total = files.reduce((sum, file) => sum + file.size, 0);
  return (
    <div className="attachment-picker">
      <label className="file-button">
        <Icon name="clip" /> {t('compose.attachFiles')}
        <input
          id="compose-files"
          type="file"
          multiple
          className="visually-hidden"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'compose-files-error' : undefined}
          onChange={(event) => {
            onChange([...files, ...Array.from(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </label>
      {files.length > 0 && (
        <ul className="picked-files" aria-label={t('compose.attachedFiles')}>
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`}>
              {file.name} <span className="size">({formatSize(file.size)})</span>{' '}
              <button
                type="button"
                aria-label={t('compose.removeNamed', { name: file.name })}
                onClick={() => onChange(files.filter((_, other) => other !== index))}
              >
                ✕
              </button>
            </li>
          ))}
          <li className="size">{t('compose.attachmentTotal', { size: formatSize(total) })}</li>
        </ul>
      )}
      {error && (
        <p className="error" id="compose-files-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
