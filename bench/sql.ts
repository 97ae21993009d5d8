/** The baseline's query: the same 25-row page Contact.get answers (primary email and phone joined). */
export const CONTACT_PAGE_SQL = `
  select c.id, c.id as contact_id, c.contact_type, c.sort_name, c.display_name, c.first_name, c.last_name,
         e.id as email_id, e.email, p.id as phone_id, p.phone
  from crm_contact c
  left join crm_email e on e.contact_id = c.id and e.is_primary
  left join crm_phone p on p.contact_id = c.id and p.is_primary
  where not c.is_deleted
  order by c.sort_name, c.id
  limit 25`;
