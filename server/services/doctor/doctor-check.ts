/** One line of `filedeck doctor`: what was checked, how it stands, and what to do about it. */
export interface DoctorCheck {
  name: string;
  status: 'OK' | 'WARN' | 'FAIL';
  message: string;
  fix?: string;
}

export const ok = (name: string, message: string): DoctorCheck => ({ name, status: 'OK', message });
export const warn = (name: string, message: string, fix: string): DoctorCheck => ({ name, status: 'WARN', message, fix });
export const failed = (name: string, message: string, fix: string): DoctorCheck => ({ name, status: 'FAIL', message, fix });
