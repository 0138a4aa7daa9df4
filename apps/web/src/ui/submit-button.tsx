import { Button } from 'antd-mobile';

/** The full-width primary button at the foot of a form. */
export function SubmitButton({ label, loading }: { label: string; loading: boolean }) {
  return (
    <Button block type="submit" color="primary" size="large" loading={loading}>
      {label}
    </Button>
  );
}
