import { DEFAULT_UPLOAD_MAX_BYTES, type FilePurpose } from '@tradewind/contract/files';
import { Button, ProgressBar } from 'antd-mobile';
import { CameraOutline, CheckCircleFill, ExclamationCircleFill } from 'antd-mobile-icons';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '@/lib/i18n.ts';
import { ApiError } from '@tradewind/http-client/api-error';
import { uploadImage } from '@/api/upload.ts';
import { shrinkImage } from '@/lib/shrink-image.ts';

const ACCEPT = 'image/jpeg,image/png,image/webp';

type Status = 'idle' | 'uploading' | 'done' | 'failed';

interface ImageUploadProps {
  purpose: FilePurpose;
  /** What to photograph, e.g. "Front of the document". */
  label: string;
  hint?: string;
  /** The uploaded file's id (a form field's value). */
  value?: string;
  onChange?: (fileId: string | undefined) => void;
  /** Passed on to the file input, for tests and labels. */
  name?: string;
}

/**
 * Picks one image, shows it at once, uploads it with a progress bar, and hands the file id
 * to the form. A failed upload keeps the picture and offers to retry the same file. To
 * clear it after a submission, remount it (a new `key`).
 */
export function ImageUpload({ purpose, label, hint, value, onChange, name }: ImageUploadProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const picked = useRef<File | null>(null);
  const [preview, setPreview] = useState<string | undefined>();
  const [status, setStatus] = useState<Status>(value ? 'done' : 'idle');
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<string | undefined>();

  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const send = async (file: File) => {
    setStatus('uploading');
    setProgress(0);
    setError(undefined);
    onChange?.(undefined);
    try {
      const body = await shrinkImage(file, DEFAULT_UPLOAD_MAX_BYTES);
      const uploaded = await uploadImage(body, purpose, {
        filename: file.name,
        onProgress: setProgress,
      });
      setStatus('done');
      onChange?.(uploaded.id);
    } catch (failure) {
      setStatus('failed');
      setError(
        failure instanceof ApiError && failure.message ? failure.message : t('upload.failed'),
      );
    }
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    picked.current = file;
    setPreview(URL.createObjectURL(file));
    void send(file);
  };

  const choose = () => input.current?.click();
  const retry = () => (picked.current ? void send(picked.current) : choose());

  return (
    <div className="tw-upload" data-status={status}>
      <input
        ref={input}
        id={inputId}
        name={name}
        type="file"
        accept={ACCEPT}
        onChange={onPick}
        aria-label={label}
        hidden
      />
      <button
        type="button"
        className="tw-upload-tile"
        onClick={choose}
        aria-label={preview ? t('upload.replace_label', { label }) : label}
        disabled={status === 'uploading'}
      >
        {preview ? (
          <img src={preview} alt={label} className="tw-upload-preview" />
        ) : (
          <span className="tw-upload-empty">
            <CameraOutline fontSize={30} aria-hidden />
            <span className="tw-upload-label">{label}</span>
            {hint && <span className="tw-muted">{hint}</span>}
            <span className="tw-upload-cta">{t('upload.choose')}</span>
          </span>
        )}
      </button>
      {status === 'uploading' && (
        <div className="tw-upload-status" role="status">
          <ProgressBar percent={progress} style={{ flex: 1, '--track-width': '6px' }} />
          <span className="tw-muted">{t('upload.progress', { percent: progress })}</span>
        </div>
      )}
      {status === 'done' && (
        <div className="tw-upload-status" role="status">
          <CheckCircleFill color="var(--tw-up)" aria-hidden />
          <span style={{ flex: 1 }}>{t('upload.done')}</span>
          <Button size="mini" fill="outline" onClick={choose}>
            {t('upload.replace')}
          </Button>
        </div>
      )}
      {status === 'failed' && (
        <div className="tw-upload-status" role="alert">
          <ExclamationCircleFill color="var(--tw-down)" aria-hidden style={{ flexShrink: 0 }} />
          <span style={{ flex: 1, color: 'var(--tw-down)' }}>{error}</span>
          <Button size="mini" color="primary" fill="outline" onClick={retry}>
            {t('upload.retry')}
          </Button>
        </div>
      )}
    </div>
  );
}
