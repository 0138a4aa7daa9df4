/**
 * Phone cameras write photos larger than the upload limit. Such a photo is redrawn here
 * (longest side at most `maxSidePx`, JPEG) before it is sent; the server checks and
 * re-encodes every upload anyway, so this only saves a refused upload and mobile data.
 * Anything that cannot be drawn is returned as it is, for the server to judge.
 */
export async function shrinkImage(file: Blob, maxBytes: number, maxSidePx = 3000): Promise<Blob> {
  if (file.size <= maxBytes || typeof createImageBitmap !== 'function') return file;
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, maxSidePx / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    const context = canvas.getContext('2d');
    if (!context) return file;
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, 'image/jpeg', 0.9),
    );
    return blob ?? file;
  } catch {
    return file;
  }
}
