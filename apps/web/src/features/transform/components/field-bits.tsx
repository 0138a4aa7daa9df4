import { Button } from 'antd-mobile';
import { LoopOutline } from 'antd-mobile-icons';

/** A field's caption with a note at its right (the available balance). */
export function FieldCaption({ caption, note }: { caption: string; note?: string }) {
  return (
    <span className="tw-tf-caption">
      <span>{caption}</span>
      {note && <span className="tw-muted tw-tf-note-right">{note}</span>}
    </span>
  );
}

/** Swaps the two sides (from ↔ to). */
export function SwapButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <div className="tw-tf-swap">
      <Button shape="rounded" size="small" onClick={onClick} aria-label={label}>
        <LoopOutline style={{ transform: 'rotate(90deg)' }} aria-hidden /> {label}
      </Button>
    </div>
  );
}
