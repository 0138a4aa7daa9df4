import { Image, Skeleton } from 'antd';
import { useEffect } from 'react';
import { useFile } from '@/api/get-file.ts';
import { defineStrings } from '@/lib/i18n.ts';

const useT = defineStrings({
  en: { failed: 'Could not load the image.' },
  'zh-CN': { failed: '无法加载图片。' },
});

/**
 * A private upload (KYC, card-deposit proof, loan ID) through the operators' authorised route:
 * fetched with the session token into a blob URL, never a public link. Each read is logged.
 */
export function PrivateImage({
  fileId,
  alt,
  width = 200,
}: {
  fileId: string;
  alt: string;
  width?: number;
}) {
  const t = useT();
  const image = useFile(fileId);
  useEffect(() => () => (image.data ? URL.revokeObjectURL(image.data) : undefined), [image.data]);
  if (image.isPending) return <Skeleton.Image active style={{ width, height: width * 0.66 }} />;
  if (image.isError) return <span style={{ color: '#ff4d4f' }}>{t('failed')}</span>;
  return <Image src={image.data} alt={alt} width={width} />;
}
