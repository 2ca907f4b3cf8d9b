import { createContext, useContext, type ReactNode } from 'react';

/**
 * The staff booking dialog (予約作成: src/features/reservations-admin/components/staff-booking-dialog.tsx), as other
 * features open it: features never import each other, so the admin routes (src/app/routes/admin) hand the dialog
 * down through this context, and a customer's page or the day board asks for it here.
 */
export interface StaffBookingDialogProps {
  opened: boolean;
  onClose: () => void;
  /** 既存顧客: the customer booked for; absent, the dialog asks for a new customer's name and contacts. */
  customerId?: number;
  /** Prefilled: the staff member (as 指名), the day (`yyyy-MM-dd`) and the start (`HH:mm`). */
  initial?: { staffId?: number; date?: string; time?: string };
  /**
   * Called with the new booking's reservation_number (the UUID its detail page is addressed by) once the dialog
   * has closed; without it the dialog opens that detail page.
   */
  onCreated?: (reservationNumber: string) => void;
}

/** Renders the dialog (a function, not a component type: a component chosen during render would remount). */
type RenderStaffBookingDialog = (props: StaffBookingDialogProps) => ReactNode;

export const StaffBookingDialogContext = createContext<RenderStaffBookingDialog | null>(null);

/** The dialog the admin routes provide; nothing outside them (a page then offers no booking). */
export function StaffBookingDialogSlot(props: StaffBookingDialogProps) {
  const render = useContext(StaffBookingDialogContext);
  return render ? render(props) : null;
}
