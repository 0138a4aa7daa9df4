import type { OperatorRole } from '@tradewind/contract/operator';
import { defineStrings } from './i18n.ts';

const useT = defineStrings({
  en: { reviewer: 'Reviewer', catalog: 'Catalog manager', admin: 'Administrator' },
  'zh-CN': { reviewer: '审核员', catalog: '产品经理', admin: '管理员' },
});

/** An operator role's name in the console's language (the shell's header, the operators page). */
export function useRoleName() {
  const t = useT();
  return (role: OperatorRole) => t(role);
}
