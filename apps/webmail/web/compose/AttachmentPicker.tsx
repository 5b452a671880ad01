import { formatSize } from '../shared/format';
import { Icon } from '../shared/Icon';

interface Props {
  files: File[];
  error?: string;
  onChange(files: File[]): void;
}

export function AttachmentPicker({ files, error, onChange }: Props) {
  const total = files.reduce((sum, file) => sum + file.size, 0);
  return (
    <div className="attachment-picker">
      <label className="file-button">
        <Icon name="clip" /> Attach files
        <input
          type="file"
          multiple
          className="visually-hidden"
          onChange={(event) => {
            onChange([...files, ...Array.from(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </label>
      {files.length > 0 && (
        <ul className="picked-files" aria-label="Attached files">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`}>
              {file.name} <span className="size">({formatSize(file.size)})</span>{' '}
              <button type="button" aria-label={`Remove ${file.name}`} onClick={() => onChange(files.filter((_, other) => other !== index))}>
                ✕
              </button>
            </li>
          ))}
          <li className="size">{formatSize(total)} of 25 MB</li>
        </ul>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
