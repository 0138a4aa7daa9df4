import { Input } from 'antd-mobile';
import { useState } from 'react';

/** Calling codes offered first; the number is sent as E.164 ("+" code number). */
const CALLING_CODES = [
  '1',
  '44',
  '86',
  '852',
  '853',
  '886',
  '34',
  '33',
  '39',
  '49',
  '41',
  '43',
  '31',
  '32',
  '351',
  '7',
  '81',
  '82',
  '65',
  '60',
  '62',
  '63',
  '66',
  '84',
  '91',
  '61',
  '64',
  '55',
  '52',
  '54',
  '57',
  '971',
  '966',
  '90',
  '27',
  '234',
];

interface PhoneInputProps {
  value?: string;
  onChange?: (value: string) => void;
  placeholder?: string;
  codeLabel: string;
  id?: string;
}

export function PhoneInput({ value = '', onChange, placeholder, codeLabel, id }: PhoneInputProps) {
  const [dial, setDial] = useState(
    () => CALLING_CODES.find((code) => value.startsWith(`+${code}`)) ?? '1',
  );
  const national = value.startsWith(`+${dial}`) ? value.slice(dial.length + 1) : '';
  return (
    <div className="tw-phone">
      <select
        aria-label={codeLabel}
        value={dial}
        onChange={(event) => {
          setDial(event.target.value);
          onChange?.(`+${event.target.value}${national}`);
        }}
      >
        {CALLING_CODES.map((code) => (
          <option key={code} value={code}>
            +{code}
          </option>
        ))}
      </select>
      <Input
        id={id}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        placeholder={placeholder}
        value={national}
        onChange={(text) => onChange?.(`+${dial}${text.replace(/[^\d]/g, '')}`)}
        clearable
      />
    </div>
  );
}
