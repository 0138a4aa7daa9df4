import { ErrorBlock } from 'antd-mobile';
import { ClockCircleOutline } from 'antd-mobile-icons';

/** A product page's whole content while operators have the product switched off. */
export function ProductOff({ message }: { message: string }) {
  return (
    <div className="tw-card" data-testid="product-off">
      <ErrorBlock
        status="empty"
        image={<ClockCircleOutline fontSize={64} color="var(--tw-muted)" />}
        title={message}
        description=""
        style={{ '--image-height': '72px', paddingTop: 16 }}
      />
    </div>
  );
}
